// Runs llama.cpp's own GBNF parser and matcher (src/llama-grammar.cpp) over
// texts, one per line on standard input, printing 1 (the grammar accepts the
// whole line) or 0 per line. Matching follows llama.cpp's
// tests/test-grammar-integration.cpp: accept one code point at a time; the
// text matches when no step empties the stacks and a stack is empty at the
// end.
//
// Usage: llama-gbnf GRAMMAR.gbnf < lines
#include "llama-grammar.h"
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static std::vector<uint32_t> code_points(const std::string & s) {
    std::vector<uint32_t> out;
    size_t i = 0;
    while (i < s.size()) {
        unsigned char c = s[i];
        int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (int k = 1; k < len && i + k < s.size(); k++) cp = (cp << 6) | (s[i + k] & 0x3F);
        out.push_back(cp);
        i += len;
    }
    return out;
}

int main(int argc, char ** argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s GRAMMAR.gbnf < lines\n", argv[0]); return 2; }
    std::ifstream file(argv[1]);
    std::stringstream text;
    text << file.rdbuf();
    std::string gbnf = text.str();
    llama_grammar * grammar = llama_grammar_init_impl(nullptr, gbnf.c_str(), "root", false, nullptr, 0, nullptr, 0);
    if (grammar == nullptr) { fprintf(stderr, "llama.cpp refused the grammar\n"); return 3; }
    std::string line;
    while (std::getline(std::cin, line)) {
        llama_grammar * g = llama_grammar_clone_impl(*grammar);
        bool ok = true;
        for (uint32_t cp : code_points(line)) {
            llama_grammar_accept(g, cp);
            if (llama_grammar_get_stacks(g).empty()) { ok = false; break; }
        }
        if (ok) {
            ok = false;
            for (const auto & stack : llama_grammar_get_stacks(g)) {
                if (stack.empty()) { ok = true; break; }
            }
        }
        printf("%d\n", ok ? 1 : 0);
        llama_grammar_free_impl(g);
    }
    llama_grammar_free_impl(grammar);
    return 0;
}
