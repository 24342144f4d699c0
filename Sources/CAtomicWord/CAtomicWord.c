// The functions are inline in the header; a C target needs one source file.
#include "CAtomicWord.h"
