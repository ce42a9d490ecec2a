/*
 * A reference database of a few fixed references, held in memory and read-only. A fetch over a connection that is
 * already open (GitKit's RemoteSession.swift) hands libgit2 a repository whose reference database is this one for the
 * negotiation alone, so the commits offered as "have" are the ones modkit chose: libgit2 offers every reference it
 * finds (docs/transfers.md, "the haves libgit2 1.5 offers"). Only reading is implemented; every write fails.
 *
 * It lives in a C target of its own because libgit2's sys headers define structures (git_reference_iterator) that
 * GitKit's Swift code sees as opaque; its one entry point is declared in CLibgit2's shim.h.
 */
#include "negotiation_refdb.h"

/* The one declaration, the one GitKit calls through: the compiler checks this definition against it. */
#include "../CLibgit2/shim.h"
#include <git2.h>
#include <git2/sys/refdb_backend.h>
#include <git2/sys/refs.h>
#if __has_include(<git2/sys/errors.h>)
#include <git2/sys/errors.h> /* git_error_set_str from libgit2 1.8 on */
#endif
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
typedef struct {
    git_refdb_backend parent;
    size_t count;
    char **names;
    git_oid *ids;
} modkit_fixed_refdb;

typedef struct {
    git_reference_iterator parent;
    modkit_fixed_refdb *db;
    char *glob;
    size_t next;
} modkit_fixed_refdb_iterator;

static int modkit_fixed_refdb_find(modkit_fixed_refdb *db, const char *name) {
    for (size_t i = 0; i < db->count; i++)
        if (strcmp(db->names[i], name) == 0) return (int)i;
    return -1;
}

static int modkit_fixed_refdb_exists(int *exists, git_refdb_backend *backend, const char *name) {
    *exists = modkit_fixed_refdb_find((modkit_fixed_refdb *)backend, name) >= 0;
    return 0;
}

static int modkit_fixed_refdb_lookup(git_reference **out, git_refdb_backend *backend, const char *name) {
    modkit_fixed_refdb *db = (modkit_fixed_refdb *)backend;
    int index = modkit_fixed_refdb_find(db, name);
    if (index < 0) {
        git_error_set_str(GIT_ERROR_REFERENCE, "reference not found");
        return GIT_ENOTFOUND;
    }
    *out = git_reference__alloc(db->names[index], &db->ids[index], NULL);
    return *out ? 0 : -1;
}

/* The next index whose name matches the glob (libgit2's `*` also matches `/`, as fnmatch without FNM_PATHNAME does). */
static int modkit_fixed_refdb_advance(modkit_fixed_refdb_iterator *iterator) {
    while (iterator->next < iterator->db->count) {
        size_t index = iterator->next++;
        if (!iterator->glob || fnmatch(iterator->glob, iterator->db->names[index], 0) == 0) return (int)index;
    }
    return -1;
}

static int modkit_fixed_refdb_next(git_reference **out, git_reference_iterator *base) {
    modkit_fixed_refdb_iterator *iterator = (modkit_fixed_refdb_iterator *)base;
    int index = modkit_fixed_refdb_advance(iterator);
    if (index < 0) return GIT_ITEROVER;
    *out = git_reference__alloc(iterator->db->names[index], &iterator->db->ids[index], NULL);
    return *out ? 0 : -1;
}

static int modkit_fixed_refdb_next_name(const char **out, git_reference_iterator *base) {
    modkit_fixed_refdb_iterator *iterator = (modkit_fixed_refdb_iterator *)base;
    int index = modkit_fixed_refdb_advance(iterator);
    if (index < 0) return GIT_ITEROVER;
    *out = iterator->db->names[index];
    return 0;
}

static void modkit_fixed_refdb_iterator_free(git_reference_iterator *base) {
    modkit_fixed_refdb_iterator *iterator = (modkit_fixed_refdb_iterator *)base;
    free(iterator->glob);
    free(iterator);
}

static int modkit_fixed_refdb_iterate(git_reference_iterator **out, git_refdb_backend *backend, const char *glob) {
    modkit_fixed_refdb_iterator *iterator = calloc(1, sizeof *iterator);
    if (!iterator) return -1;
    iterator->db = (modkit_fixed_refdb *)backend;
    iterator->glob = glob ? strdup(glob) : NULL;
    if (glob && !iterator->glob) { free(iterator); return -1; }
    iterator->parent.next = modkit_fixed_refdb_next;
    iterator->parent.next_name = modkit_fixed_refdb_next_name;
    iterator->parent.free = modkit_fixed_refdb_iterator_free;
    *out = &iterator->parent;
    return 0;
}

static int modkit_fixed_refdb_read_only(void) {
    git_error_set_str(GIT_ERROR_REFERENCE, "modkit's negotiation reference database is read-only");
    return -1;
}

static int modkit_fixed_refdb_write(git_refdb_backend *b, const git_reference *r, int f, const git_signature *w,
                                    const char *m, const git_oid *o, const char *t) {
    (void)b; (void)r; (void)f; (void)w; (void)m; (void)o; (void)t;
    return modkit_fixed_refdb_read_only();
}

static int modkit_fixed_refdb_rename(git_reference **out, git_refdb_backend *b, const char *o, const char *n, int f,
                                     const git_signature *w, const char *m) {
    (void)out; (void)b; (void)o; (void)n; (void)f; (void)w; (void)m;
    return modkit_fixed_refdb_read_only();
}

static int modkit_fixed_refdb_del(git_refdb_backend *b, const char *n, const git_oid *o, const char *t) {
    (void)b; (void)n; (void)o; (void)t;
    return modkit_fixed_refdb_read_only();
}

static int modkit_fixed_refdb_has_log(git_refdb_backend *b, const char *n) { (void)b; (void)n; return 0; }

static int modkit_fixed_refdb_ensure_log(git_refdb_backend *b, const char *n) {
    (void)b; (void)n;
    return modkit_fixed_refdb_read_only();
}

static int modkit_fixed_refdb_reflog_read(git_reflog **out, git_refdb_backend *b, const char *n) {
    (void)out; (void)b; (void)n;
    return modkit_fixed_refdb_read_only();
}

static int modkit_fixed_refdb_reflog_write(git_refdb_backend *b, git_reflog *r) {
    (void)b; (void)r;
    return modkit_fixed_refdb_read_only();
}

static int modkit_fixed_refdb_reflog_rename(git_refdb_backend *b, const char *o, const char *n) {
    (void)b; (void)o; (void)n;
    return modkit_fixed_refdb_read_only();
}

static int modkit_fixed_refdb_reflog_delete(git_refdb_backend *b, const char *n) {
    (void)b; (void)n;
    return modkit_fixed_refdb_read_only();
}

static void modkit_fixed_refdb_free(git_refdb_backend *backend) {
    modkit_fixed_refdb *db = (modkit_fixed_refdb *)backend;
    for (size_t i = 0; i < db->count; i++) free(db->names[i]);
    free(db->names);
    free(db->ids);
    free(db);
}

/* A reference database for `repository` that holds exactly `count` direct references (`names[i]` at `ids[i]`). */
int modkit_fixed_refdb_new(git_refdb **out, git_repository *repository, const char *const *names, const git_oid *ids,
                           size_t count) {
    modkit_fixed_refdb *db = calloc(1, sizeof *db);
    if (!db) return -1;
    if (git_refdb_init_backend(&db->parent, GIT_REFDB_BACKEND_VERSION) < 0) { free(db); return -1; }
    db->names = calloc(count ? count : 1, sizeof *db->names);
    db->ids = calloc(count ? count : 1, sizeof *db->ids);
    if (!db->names || !db->ids) { modkit_fixed_refdb_free(&db->parent); return -1; }
    for (size_t i = 0; i < count; i++) {
        db->names[i] = strdup(names[i]);
        if (!db->names[i]) { modkit_fixed_refdb_free(&db->parent); return -1; }
        db->ids[i] = ids[i];
        db->count = i + 1;
    }
    db->parent.exists = modkit_fixed_refdb_exists;
    db->parent.lookup = modkit_fixed_refdb_lookup;
    db->parent.iterator = modkit_fixed_refdb_iterate;
    db->parent.write = modkit_fixed_refdb_write;
    db->parent.rename = modkit_fixed_refdb_rename;
    db->parent.del = modkit_fixed_refdb_del;
    db->parent.has_log = modkit_fixed_refdb_has_log;
    db->parent.ensure_log = modkit_fixed_refdb_ensure_log;
    db->parent.free = modkit_fixed_refdb_free;
    db->parent.reflog_read = modkit_fixed_refdb_reflog_read;
    db->parent.reflog_write = modkit_fixed_refdb_reflog_write;
    db->parent.reflog_rename = modkit_fixed_refdb_reflog_rename;
    db->parent.reflog_delete = modkit_fixed_refdb_reflog_delete;
    git_refdb *refdb = NULL;
    if (git_refdb_new(&refdb, repository) < 0) { modkit_fixed_refdb_free(&db->parent); return -1; }
    if (git_refdb_set_backend(refdb, &db->parent) < 0) {
        modkit_fixed_refdb_free(&db->parent);
        git_refdb_free(refdb);
        return -1;
    }
    *out = refdb;
    return 0;
}

