// The few symbols llama-grammar.cpp links against outside the grammar code.
// The harness never gives the grammar a vocabulary, so the vocabulary ones
// are never called; they abort if they are.
#include "llama-impl.h"
#include "llama-vocab.h"
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

extern "C" void ggml_abort(const char * file, int line, const char * fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "%s:%d: ", file, line);
    vfprintf(stderr, fmt, args);
    va_end(args);
    abort();
}

void llama_log_internal(ggml_log_level level, const char * format, ...) {
    if (level != GGML_LOG_LEVEL_ERROR && level != GGML_LOG_LEVEL_WARN) return;
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
}

bool llama_vocab::is_eog(llama_token) const { abort(); }
const std::string & llama_vocab::token_to_piece(llama_token) const { abort(); }
int32_t llama_vocab::tokenize(const char *, int32_t, llama_token *, int32_t, bool, bool) const { abort(); }
