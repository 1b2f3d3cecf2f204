// Only the header matters; SwiftPM needs one source file in a C target.
#include "CLibFuzzer.h"
