#ifndef CAIRN_CGEOS_SHIM_H
#define CAIRN_CGEOS_SHIM_H
#include <geos_c.h>
#endif
