/* A plain IDA* with the Manhattan distance for the 15-puzzle: the node-rate
 * anchor of bench/tiles_engine.py, compiled there with the system's C compiler
 * (gcc -O2) for the benchmark only; lacak never builds or needs it.
 *
 * The textbook program: one board in an array, the blank's cell, the
 * Manhattan distance updated by the moved tile's table entry, the inverse of
 * the last move never generated, recursion one frame per move. Goal: the blank
 * in cell 0 and tile t on cell t (Korf's instances). Counts as lacak counts:
 * "generated" are the children whose estimate was computed.
 *
 * Input, one instance a line: sixteen tiles row by row. Output, one line each:
 * length (or -1 when the node cap stopped it), generated, expanded, seconds
 * of CPU time. The cap counts expanded nodes and stops where lacak's
 * max_expanded stops (before the node that would pass it), so a capped run
 * visits exactly the nodes a capped lacak run visits.
 *
 *   cc -O2 -o manhattan_idastar manhattan_idastar.c
 *   ./manhattan_idastar [MAX_EXPANDED] < instances.txt
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 16
#define W 4

static int board[N];
static int md[N][N];            /* md[tile][cell] */
static int nbr[N][4];
static int degree[N];
static long long generated, expanded, cap;
static int bound;
static int stopped;

static int dfs(int blank, int prev, int g, int h) {
    if (cap && expanded >= cap) { stopped = 1; return 0; }
    expanded++;
    if (h == 0) return 1;   /* Manhattan 0 only at the goal */
    for (int i = 0; i < degree[blank]; i++) {
        int nz = nbr[blank][i];
        if (nz == prev) continue;
        int t = board[nz];
        int h1 = h - md[t][nz] + md[t][blank];
        generated++;
        if (g + 1 + h1 > bound) continue;
        board[blank] = t;
        board[nz] = 0;
        int found = dfs(nz, blank, g + 1, h1);
        board[nz] = t;
        board[blank] = 0;
        if (found || stopped) return found;
    }
    return 0;
}

int main(int argc, char **argv) {
    cap = argc > 1 ? atoll(argv[1]) : 0;
    for (int t = 1; t < N; t++)
        for (int p = 0; p < N; p++)
            md[t][p] = abs(p / W - t / W) + abs(p % W - t % W);
    for (int p = 0; p < N; p++) {
        int r = p / W, c = p % W, k = 0;
        if (r < W - 1) nbr[p][k++] = p + W;   /* D R L U, lacak's order */
        if (c < W - 1) nbr[p][k++] = p + 1;
        if (c > 0) nbr[p][k++] = p - 1;
        if (r > 0) nbr[p][k++] = p - W;
        degree[p] = k;
    }
    while (1) {
        int blank = -1, h = 0;
        for (int p = 0; p < N; p++) {
            if (scanf("%d", &board[p]) != 1) return 0;
            if (board[p] == 0) blank = p; else h += md[board[p]][p];
        }
        generated = expanded = 0;
        stopped = 0;
        clock_t start = clock();
        int found = 0;
        for (bound = h; !found && !stopped; bound += 2)
            found = dfs(blank, -1, 0, h);
        double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
        printf("%d %lld %lld %.3f\n", found ? bound - 2 : -1, generated, expanded, seconds);
        fflush(stdout);
    }
}
