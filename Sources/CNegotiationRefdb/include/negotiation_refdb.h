#ifndef MODKIT_NEGOTIATION_REFDB_H
#define MODKIT_NEGOTIATION_REFDB_H

/* modkit_fixed_refdb_new is declared in CLibgit2's shim.h, with libgit2's types as GitKit sees them. */

#endif
