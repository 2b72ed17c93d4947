/* A complete engine of the genial engine protocol in C: it asks the host for the legal
 * moves and plays one at random. Build:  cc -O2 -o random_engine random_engine.c
 * Check:  genial engine-check ./random_engine */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state = 0x9E3779B97F4A7C15ULL;

static unsigned long long next_random(void) { /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1DULL;
}

static void say(const char *line) {
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

/* Picks one of the space-separated moves after "legalmoves" and answers with it. */
static void answer(char *moves) {
    size_t count = 0;
    for (char *p = moves; *p; p++)
        if (*p != ' ' && (p == moves || p[-1] == ' ')) count++;
    if (count == 0) return;
    size_t pick = (size_t)(next_random() % count), i = 0;
    for (char *tok = strtok(moves, " \n"); tok; tok = strtok(NULL, " \n"), i++) {
        if (i == pick) {
            printf("bestmove %s\n", tok);
            fflush(stdout);
            return;
        }
    }
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) != -1) {
        if (strncmp(line, "protocol", 8) == 0) {
            say("id name random-c");
            say("id author the genial examples");
            say("option name seed type int default 0 min 0 max 4294967295");
            say("protocolok 1");
        } else if (strncmp(line, "setoption name seed value ", 26) == 0) {
            state = strtoull(line + 26, NULL, 10) * 0x9E3779B97F4A7C15ULL + 1;
        } else if (strncmp(line, "isready", 7) == 0) {
            say("readyok");
        } else if (strncmp(line, "go", 2) == 0 && (line[2] == ' ' || line[2] == '\n')) {
            say("legal");
            while (getline(&line, &cap, stdin) != -1) {
                if (strncmp(line, "legalmoves ", 11) == 0) {
                    answer(line + 11);
                    break;
                }
            }
        } else if (strncmp(line, "quit", 4) == 0) {
            break;
        }
        /* Every other line (the position, newgame, stop, later versions' lines) is ignored. */
    }
    free(line);
    return 0;
}
