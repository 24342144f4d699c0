// Relaxed atomic loads and stores of one machine word, for Swift code that must support
// platforms older than the standard library's `Synchronization` module (macOS 15, iOS 18).
//
// Persistence's row coders keep their generation in such a word: the coder's own thread writes
// it, and a container an entity kept past its row may read it from any thread to find that its
// row is over. Relaxed order is all that needs: the reader compares the word with a stamp that
// is never current again, so any value it reads means "over"; the atomic access only makes the
// read whole and defined (and visible as such to ThreadSanitizer). On x86-64 and ARM64 both
// compile to a plain load or store.
#ifndef FETCHKIT_C_ATOMIC_WORD_H
#define FETCHKIT_C_ATOMIC_WORD_H

#include <stdint.h>

/// The word at `word`, read whole.
static inline uintptr_t fk_atomic_word_load(const uintptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// Writes `value` to the word at `word` whole.
static inline void fk_atomic_word_store(uintptr_t *_Nonnull word, uintptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

#endif
