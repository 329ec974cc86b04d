#ifndef CAIRN_CGEOS_SHIM_H
#define CAIRN_CGEOS_SHIM_H
#include <geos_c.h>

// The types of the GEOS functions Cairn calls, as pointers, taken from the declarations without referring to the
// symbols (__typeof__ is not evaluated): CairnGEOS's GEOSLibrary looks each one up in libgeos_c opened at run time.
typedef __typeof__(GEOSversion) *CairnGEOSversion;
typedef __typeof__(GEOS_init_r) *CairnGEOS_init_r;
typedef __typeof__(GEOS_finish_r) *CairnGEOS_finish_r;
typedef __typeof__(GEOSContext_setErrorMessageHandler_r) *CairnGEOSContext_setErrorMessageHandler_r;
typedef __typeof__(GEOSFree_r) *CairnGEOSFree_r;
typedef __typeof__(GEOSGeom_createRectangle_r) *CairnGEOSGeom_createRectangle_r;
typedef __typeof__(GEOSGeom_createPointFromXY_r) *CairnGEOSGeom_createPointFromXY_r;
typedef __typeof__(GEOSGeom_destroy_r) *CairnGEOSGeom_destroy_r;
typedef __typeof__(GEOSGeomFromWKB_buf_r) *CairnGEOSGeomFromWKB_buf_r;
typedef __typeof__(GEOSGeomToWKB_buf_r) *CairnGEOSGeomToWKB_buf_r;
typedef __typeof__(GEOSSTRtree_create_r) *CairnGEOSSTRtree_create_r;
typedef __typeof__(GEOSSTRtree_destroy_r) *CairnGEOSSTRtree_destroy_r;
typedef __typeof__(GEOSSTRtree_insert_r) *CairnGEOSSTRtree_insert_r;
typedef __typeof__(GEOSSTRtree_query_r) *CairnGEOSSTRtree_query_r;
typedef __typeof__(GEOSisValid_r) *CairnGEOSisValid_r;
typedef __typeof__(GEOSisValidReason_r) *CairnGEOSisValidReason_r;
typedef __typeof__(GEOSMakeValidParams_create_r) *CairnGEOSMakeValidParams_create_r;
typedef __typeof__(GEOSMakeValidParams_destroy_r) *CairnGEOSMakeValidParams_destroy_r;
typedef __typeof__(GEOSMakeValidParams_setMethod_r) *CairnGEOSMakeValidParams_setMethod_r;
typedef __typeof__(GEOSMakeValidParams_setKeepCollapsed_r) *CairnGEOSMakeValidParams_setKeepCollapsed_r;
typedef __typeof__(GEOSMakeValidWithParams_r) *CairnGEOSMakeValidWithParams_r;
typedef __typeof__(GEOSPrepare_r) *CairnGEOSPrepare_r;
typedef __typeof__(GEOSPreparedGeom_destroy_r) *CairnGEOSPreparedGeom_destroy_r;
typedef __typeof__(GEOSPreparedCovers_r) *CairnGEOSPreparedCovers_r;
#endif
