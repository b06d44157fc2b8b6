// A plain C++ Boggle scorer, written for bench/boggle.py only: the anchor lacak's
// compiled walk is measured against on the same machine, boards and words.
//
// It follows the design of Dan Vanderkam's C++ Boggler (the issue's "about 5 us a
// board"): a trie of the words with 26 letter edges per node, "qu" folded into one
// edge for the Qu die, nodes laid out compactly (an edge mask and the index of the
// first child; a child is found with a popcount), a mark per node so that each word
// counts once per board, and a recursive depth-first walk that sums the points.
//
//   g++ -O3 -march=native -o boggle_anchor boggle_anchor.cc
//   ./boggle_anchor WORDS BOARDS [REPEAT]
//
// WORDS: one upper-case word a line. BOARDS: one 4x4 board a line, 16 letters,
// "q" standing for the Qu tile. Prints one "count score" line per board, then
// one "seconds CPU WALL" line per pass over all boards (REPEAT passes).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

struct Node {
  uint32_t mask = 0;   // bit c: an edge for letter c
  int32_t first = 0;   // index of the first child (children are contiguous)
  int32_t mark = -1;   // the last board this word was counted on
  int32_t points = 0;  // the word's points, 0 when the node ends no word
};

const int kPoints[] = {0, 0, 0, 1, 1, 2, 3, 5, 11};

std::vector<Node> nodes;
int neighbours[16][9];  // each cell's neighbours, -1 after the last
int tiles[16];
int board_id = 0;
int words_found = 0;

// A word as trie letters ("qu" -> q); false when it has a q without a u.
bool fold(const std::string& word, std::string* out) {
  out->clear();
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    if (c < 'A' || c > 'Z') return false;
    if (c == 'Q') {
      if (i + 1 >= word.size() || word[i + 1] != 'U') return false;
      ++i;
    }
    out->push_back(static_cast<char>(c - 'A'));
  }
  return true;
}

// The trie of the sorted words, laid out breadth first.
void build(const std::vector<std::string>& words) {
  struct Temp {
    int child[26];
    int points;
  };
  std::vector<Temp> temp(1);
  std::fill(temp[0].child, temp[0].child + 26, 0);
  temp[0].points = 0;
  std::string folded;
  for (const std::string& word : words) {
    if (word.size() < 3 || !fold(word, &folded)) continue;
    int at = 0;
    for (char c : folded) {
      if (!temp[at].child[static_cast<int>(c)]) {
        temp[at].child[static_cast<int>(c)] = static_cast<int>(temp.size());
        temp.push_back(Temp{});
        std::fill(temp.back().child, temp.back().child + 26, 0);
        temp.back().points = 0;
      }
      at = temp[at].child[static_cast<int>(c)];
    }
    temp[at].points = kPoints[std::min<size_t>(word.size(), 8)];
  }
  std::vector<int> order(1, 0), where(temp.size(), 0);
  for (size_t k = 0; k < order.size(); ++k)
    for (int c = 0; c < 26; ++c)
      if (temp[order[k]].child[c]) order.push_back(temp[order[k]].child[c]);
  for (size_t k = 0; k < order.size(); ++k) where[order[k]] = static_cast<int>(k);
  nodes.assign(order.size(), Node{});
  for (size_t k = 0; k < order.size(); ++k) {
    const Temp& t = temp[order[k]];
    Node& n = nodes[k];
    n.points = t.points;
    n.first = -1;
    for (int c = 0; c < 26; ++c)
      if (t.child[c]) {
        n.mask |= 1u << c;
        if (n.first < 0) n.first = where[t.child[c]];
      }
  }
}

int dfs(int cell, int node, uint32_t used) {
  Node& n = nodes[node];
  int score = 0;
  if (n.points && n.mark != board_id) {
    n.mark = board_id;
    score += n.points;
    ++words_found;
  }
  used |= 1u << cell;
  for (const int* nb = neighbours[cell]; *nb >= 0; ++nb) {
    if (used & (1u << *nb)) continue;
    uint32_t bit = 1u << tiles[*nb];
    if (!(n.mask & bit)) continue;
    score += dfs(*nb, n.first + __builtin_popcount(n.mask & (bit - 1)), used);
  }
  return score;
}

int score_board(const std::string& board) {
  for (int i = 0; i < 16; ++i) tiles[i] = board[i] - 'a';
  int score = 0;
  const Node& root = nodes[0];
  for (int i = 0; i < 16; ++i) {
    uint32_t bit = 1u << tiles[i];
    if (root.mask & bit) score += dfs(i, root.first + __builtin_popcount(root.mask & (bit - 1)), 0);
  }
  return score;
}

double seconds(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: boggle_anchor WORDS BOARDS [REPEAT]\n";
    return 2;
  }
  std::vector<std::string> words, boards;
  std::string line;
  std::ifstream word_file(argv[1]), board_file(argv[2]);
  while (std::getline(word_file, line)) words.push_back(line);
  while (std::getline(board_file, line))
    if (line.size() == 16) boards.push_back(line);
  int repeat = argc > 3 ? std::atoi(argv[3]) : 5;
  build(words);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      int k = 0;
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
          int rr = r + dr, cc = c + dc;
          if ((dr || dc) && rr >= 0 && rr < 4 && cc >= 0 && cc < 4) neighbours[r * 4 + c][k++] = rr * 4 + cc;
        }
      neighbours[r * 4 + c][k] = -1;
    }
  std::vector<int> scores(boards.size()), counts(boards.size());
  std::vector<double> cpus, walls;
  for (int pass = 0; pass < repeat; ++pass) {
    double cpu = seconds(CLOCK_PROCESS_CPUTIME_ID), wall = seconds(CLOCK_MONOTONIC);
    for (size_t b = 0; b < boards.size(); ++b) {
      ++board_id;
      words_found = 0;
      scores[b] = score_board(boards[b]);
      counts[b] = words_found;
    }
    cpus.push_back(seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu);
    walls.push_back(seconds(CLOCK_MONOTONIC) - wall);
  }
  for (size_t b = 0; b < boards.size(); ++b) std::printf("%d %d\n", counts[b], scores[b]);
  for (size_t k = 0; k < cpus.size(); ++k) std::printf("seconds %.9f %.9f\n", cpus[k], walls[k]);
  std::fprintf(stderr, "%zu words, %zu trie nodes (%zu bytes)\n", words.size(), nodes.size(),
               nodes.size() * sizeof(Node));
  return 0;
}
