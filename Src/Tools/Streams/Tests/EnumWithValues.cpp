// Must not compile: NAO_ENUM's names are indexed by value, so an enumerator with an explicit value is refused.
#include "Tools/Streams/Enum.h"

NAO_ENUM(WithValues, int, a = 1, b = 2);
