/*
 * Debian's libgit2 uses mbedTLS, whose start-up (git_libgit2_init) parses the whole system certificate
 * bundle: about 5 ms of CPU in every modkit run, although most commands never open a TLS connection and
 * GitKit sets the certificate locations itself before its first network operation (TLSTrust), which parses
 * the bundle again. This file defines mbedtls_x509_crt_parse_file (and _parse_path) in the modkit executable; the dynamic
 * linker binds libgit2's calls to it, because an executable's symbols come first. While libgit2 initialises
 * it only remembers what it was asked to load and reports success (an empty trust store: a TLS connection
 * made without loading it fails verification, never the other way round); at every other time it forwards
 * to mbedTLS. Where libgit2 uses another TLS library, or symbols do not interpose (macOS two-level
 * namespaces), nothing here is ever called and libgit2 behaves as it always did.
 */
#include "trust_deferral.h"

#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* mbedtls_x509_crt_parse_file and mbedtls_x509_crt_parse_path have this shape (a bundle file or a directory of them). */
typedef int (*parse_function)(void *chain, const char *path);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int deferring = 0;
static void *deferred_chain = NULL; /* the mbedtls_x509_crt libgit2 installed as its trust store */
static char *deferred_path = NULL;
static int deferred_is_directory = 0;

/* mbedTLS's own function, found past this executable in the lookup order. */
static parse_function mbedtls_function(int directory) {
    static parse_function functions[2] = {NULL, NULL};
    pthread_mutex_lock(&lock);
    if (functions[directory] == NULL)
        functions[directory] = (parse_function)dlsym(RTLD_NEXT, directory ? "mbedtls_x509_crt_parse_path" : "mbedtls_x509_crt_parse_file");
    parse_function found = functions[directory];
    pthread_mutex_unlock(&lock);
    return found;
}

static void forget_deferred_locked(void) {
    free(deferred_path);
    deferred_path = NULL;
    deferred_chain = NULL;
}

static int parse(void *chain, const char *path, int directory) {
    pthread_mutex_lock(&lock);
    if (deferring && chain != NULL && path != NULL) {
        forget_deferred_locked();
        deferred_path = strdup(path);
        deferred_chain = deferred_path != NULL ? chain : NULL;
        deferred_is_directory = directory;
        int remembered = deferred_path != NULL;
        pthread_mutex_unlock(&lock);
        if (remembered)
            return 0;
    } else if (!deferring) {
        /* Any other load installs a new chain and frees the one from start-up: nothing to load into any more.
           (mbedtls_x509_crt_parse_path calls mbedtls_x509_crt_parse_file per file; those land here too.) */
        forget_deferred_locked();
        pthread_mutex_unlock(&lock);
    } else {
        pthread_mutex_unlock(&lock);
    }
    parse_function function = mbedtls_function(directory);
    return function != NULL ? function(chain, path) : -1;
}

int mbedtls_x509_crt_parse_file(void *chain, const char *path) { return parse(chain, path, 0); }
int mbedtls_x509_crt_parse_path(void *chain, const char *path) { return parse(chain, path, 1); }

void modkit_trust_defer_begin(void) {
    pthread_mutex_lock(&lock);
    deferring = 1;
    pthread_mutex_unlock(&lock);
}

void modkit_trust_defer_end(void) {
    pthread_mutex_lock(&lock);
    deferring = 0;
    pthread_mutex_unlock(&lock);
}

int modkit_trust_load_deferred(void) {
    pthread_mutex_lock(&lock);
    void *chain = deferred_chain;
    char *path = deferred_path;
    int directory = deferred_is_directory;
    deferred_chain = NULL;
    deferred_path = NULL;
    pthread_mutex_unlock(&lock);
    if (chain == NULL || path == NULL) {
        free(path);
        return 0;
    }
    parse_function function = mbedtls_function(directory);
    int result = function != NULL ? function(chain, path) : -1;
    free(path);
    return result < 0 ? result : 0; /* a positive result counts certificates that failed to parse */
}

int modkit_trust_has_deferred(void) {
    pthread_mutex_lock(&lock);
    int has = deferred_chain != NULL;
    pthread_mutex_unlock(&lock);
    return has;
}

#else

void modkit_trust_defer_begin(void) {}
void modkit_trust_defer_end(void) {}
int modkit_trust_load_deferred(void) { return 0; }
int modkit_trust_has_deferred(void) { return 0; }

#endif
