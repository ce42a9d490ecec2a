#ifndef MODKIT_TRUST_DEFERRAL_H
#define MODKIT_TRUST_DEFERRAL_H

/* Defers the certificate bundle that an mbedTLS-backed libgit2 parses in git_libgit2_init() until a
   network operation needs it. See trust_deferral.c. */

/* Around git_libgit2_init(): while deferring, libgit2's load of its default bundle is only remembered. */
void modkit_trust_defer_begin(void);
void modkit_trust_defer_end(void);

/* Loads the remembered default bundle into the chain libgit2 installed; 0 when done or nothing was deferred. */
int modkit_trust_load_deferred(void);

/* 1 when libgit2's default bundle was deferred and not yet loaded or replaced. */
int modkit_trust_has_deferred(void);

#endif
