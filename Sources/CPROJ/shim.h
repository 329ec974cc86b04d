#ifndef CAIRN_CPROJ_SHIM_H
#define CAIRN_CPROJ_SHIM_H
#include <proj.h>
#include <geodesic.h>
#endif
