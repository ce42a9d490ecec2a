#ifndef MODKIT_CYAML_SHIM_H
#define MODKIT_CYAML_SHIM_H
#include <yaml.h>
#endif
