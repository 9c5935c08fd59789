/* Symbol visibility: the library builds with hidden visibility; CGN_API marks the public API. */
#ifndef CGN_CGN_EXPORT_H
#define CGN_CGN_EXPORT_H

#if defined(CGN_STATIC_DEFINE)
#define CGN_API
#elif defined(__GNUC__) || defined(__clang__)
#define CGN_API __attribute__((visibility("default")))
#else
#define CGN_API
#endif

#endif /* CGN_CGN_EXPORT_H */
