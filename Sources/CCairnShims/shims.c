// CCairnShims is header-only (static inline functions, inlined into Swift); SwiftPM needs one source file per C target.
#include "CCairnShims.h"
