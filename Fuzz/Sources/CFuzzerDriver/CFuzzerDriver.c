// Header only: LLVMFuzzerRunDriver is in the libFuzzer runtime. SwiftPM needs one source file per C target.
#include "CFuzzerDriver.h"
