#ifndef MODKIT_CLIBGIT2_SHIM_H
#define MODKIT_CLIBGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include <git2/sys/diff.h>
#include <git2/sys/stream.h>
#if __has_include(<git2/sys/errors.h>)
#include <git2/sys/errors.h> /* git_error_clear from libgit2 1.8 on (Homebrew's 1.9) */
#endif
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

/* A plain TCP stream of modkit's own, laid out as libgit2's socket stream (git_socket_stream, src/streams/socket.h in
   1.5 and 1.6): its ssh transport takes any standard stream for one of those and hands `s`, the socket, to libssh2.
   modkit's state comes after. */
typedef struct {
    git_stream parent;
    char *host;
    char *port;
    int s;
    void *owner;
} modkit_stream;

/* Makes `init` open every plain TCP connection libgit2 makes (git://, http://, the socket under https). Only on
   libgit2 before 1.7, whose streams carry no timeouts; later versions keep their own streams (returns 1). */
static inline int modkit_git_register_socket_stream(int (*init)(git_stream **, const char *, const char *)) {
#if LIBGIT2_VER_MAJOR == 1 && LIBGIT2_VER_MINOR < 7
    git_stream_registration registration;
    memset(&registration, 0, sizeof registration);
    registration.version = GIT_STREAM_VERSION;
    registration.init = init;
    return git_stream_register(GIT_STREAM_STANDARD, &registration);
#else
    (void)init;
    return 1;
#endif
}

/* The error a stream of modkit's own reports to libgit2 (only ever registered before 1.7, where this is public). */
static inline void modkit_git_error_set_net(const char *message) {
#if LIBGIT2_VER_MAJOR == 1 && LIBGIT2_VER_MINOR < 7
    git_error_set_str(GIT_ERROR_NET, message);
#else
    (void)message;
#endif
}

/* A read-only reference database of `count` fixed direct references, held in memory (CNegotiationRefdb). */
int modkit_fixed_refdb_new(git_refdb **out, git_repository *repository, const char *const *names, const git_oid *ids,
                           size_t count);

#endif
