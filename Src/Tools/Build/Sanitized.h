#pragma once
// NAO_SANITIZED is 1 in AddressSanitizer and ThreadSanitizer builds (Make/sanitize), 0 otherwise. Such a build
// reserves terabytes of shadow memory (locking all memory would try to pin it) and keeps freed memory in a
// quarantine (heap and RSS figures are not the program's own then).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NAO_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NAO_SANITIZED 1
#endif
#endif
#ifndef NAO_SANITIZED
#define NAO_SANITIZED 0
#endif
