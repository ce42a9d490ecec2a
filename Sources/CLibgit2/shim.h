#ifndef MODKIT_CLIBGIT2_SHIM_H
#define MODKIT_CLIBGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include <git2/sys/diff.h>
#include <signal.h>
#include <pthread.h>
#include <string.h>

/* Hands a backend to an object database, freeing it when the database refuses it (the database owns it otherwise). */
static inline int modkit_git_odb_adopt_backend(git_odb *odb, git_odb_backend *backend, int priority) {
    int error = git_odb_add_backend(odb, backend, priority);
    if (error < 0 && backend->free)
        backend->free(backend);
    return error;
}

/* git_libgit2_opts is variadic and cannot be called from Swift; these wrap the options modkit uses. */

static inline int modkit_git_set_search_path(int level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}

static inline int modkit_git_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

static inline int modkit_git_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}

/* Shallow fetches (git_fetch_options.depth) exist from libgit2 1.7 on; before, the depth is ignored. */
#if LIBGIT2_VER_MAJOR > 1 || (LIBGIT2_VER_MAJOR == 1 && LIBGIT2_VER_MINOR >= 7)
#define MODKIT_GIT_SHALLOW 1
#else
#define MODKIT_GIT_SHALLOW 0
#endif

static inline int modkit_git_supports_shallow(void) {
    return MODKIT_GIT_SHALLOW;
}

static inline void modkit_git_fetch_options_set_depth(git_fetch_options *options, int depth) {
#if MODKIT_GIT_SHALLOW
    options->depth = depth;
#else
    (void)options;
    (void)depth;
#endif
}

/* libgit2 1.7 and later time out stalled connects and reads themselves; older versions have no such option (returns 0 then). */
static inline int modkit_git_set_server_timeouts(int milliseconds) {
#if LIBGIT2_VER_MAJOR > 1 || (LIBGIT2_VER_MAJOR == 1 && LIBGIT2_VER_MINOR >= 7)
    int error = git_libgit2_opts(GIT_OPT_SET_SERVER_CONNECT_TIMEOUT, milliseconds);
    return error < 0 ? error : git_libgit2_opts(GIT_OPT_SET_SERVER_TIMEOUT, milliseconds);
#else
    (void)milliseconds;
    return 0;
#endif
}

/* A handler that does nothing, installed without SA_RESTART: sending its signal to a thread makes the blocking
   connect()/recv() it is in fail with EINTR, which is how a stalled network operation is cancelled on libgit2 < 1.7. */
static void modkit_wakeup_handler(int signal_number) { (void)signal_number; }

static inline int modkit_install_wakeup_signal(int signal_number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = modkit_wakeup_handler;
    sigemptyset(&action.sa_mask);
    return sigaction(signal_number, &action, NULL);
}

/* Unblocks the signal on the calling thread: a process may inherit a mask that blocks it. */
static inline int modkit_unblock_signal(int signal_number) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* A read-only reference database of `count` fixed direct references, held in memory (CNegotiationRefdb). */
int modkit_fixed_refdb_new(git_refdb **out, git_repository *repository, const char *const *names, const git_oid *ids,
                           size_t count);

#endif
