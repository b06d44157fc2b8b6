// The Boggle page: type a board or shake one, pick a dictionary and the shortest word;
// every word with its score, sortable and filterable; hover or click a word to see its
// path on the board; drag across the tiles to check a word as in the real game.
// The board and the words come from the API's result ("boggle": board, words, paths).
// The Boggle plugin's page of lacak serve (the boggle kind's lacak.Page, served under
// /pages/boggle/), built on the pages' shared helpers (/static/ui.js; docs/web.md).

import {api, count, errorDisplay, field, h, madeNote, select} from "/static/ui.js";

const adjacent = ([a, b], [c, d]) => Math.max(Math.abs(a - c), Math.abs(b - d)) === 1;

export default async function bogglePage(root, catalogue) {
  const dictionaries = await api("dictionaries");
  const state = {answer: null, sort: ["score", -1], drag: null, pinned: null};
  const board = h("textarea", {name: "board", rows: "5", spellcheck: false,
    value: catalogue.example || "AHORJ/QQUOI/SSCPD/MUPSM/AUULI"});
  board.value = catalogue.example || "AHORJ/QQUOI/SSCPD/MUPSM/AUULI";
  const dice = select(catalogue.generators.map((g) => [g.name, `${g.name} — ${g.description}`]),
    "classic4", {name: "dice"});
  const seed = h("input", {type: "number", min: "0", step: "1", placeholder: "random", name: "seed"});
  const dictionary = select(dictionaries.map((d) => [d.name, `${d.name}${d.language ? ` (${d.language})` : ""}`]),
    dictionaries.some((d) => d.name === "ind") ? "ind" : dictionaries[0]?.name, {name: "dictionary"});
  dictionary.title = "Every registered dictionary, drop-in files included";
  const minLength = h("input", {type: "number", min: "1", max: "30", step: "1", value: "3", name: "min_length"});
  const grid = h("div", {class: "boggle-board", id: "board"});
  const overlay = h("svg:svg", {class: "board-overlay"});
  const boardBox = h("div", {class: "board-box"}, grid, overlay);
  const verdict = h("div", {class: "verdict", id: "verdict", "aria-live": "polite"});
  const summary = h("div", {class: "summary", id: "summary"});
  const filter = h("input", {type: "search", placeholder: "filter words", name: "filter"});
  const table = h("table", {class: "words", id: "words"});
  const solveButton = h("button", {type: "button", class: "primary", id: "solve", text: "Solve"});
  const shakeButton = h("button", {type: "button", id: "shake", text: "Shake"});
  const madeLine = madeNote("made");
  const view = h("section", {class: "view boggle"},
    h("div", {}, boardBox, verdict,
      h("p", {class: "hint", text: "Hover or click a word to see its path; drag across the tiles to check a word."})),
    h("div", {class: "word-list"}, summary, filter, table));
  const errors = errorDisplay(view, {hasResult: () => state.answer !== null});

  const solve = async () => {
    errors.clear();
    verdict.textContent = "";
    const options = {dictionary: dictionary.value};
    if (minLength.value !== "") options.min_length = minLength.value;
    try {
      state.answer = await api(`kinds/${catalogue.kind}/solve`, {puzzle: board.value, options});
      state.pinned = null;
      drawBoard();
      drawWords();
    } catch (error) {
      errors.show(error, {control: solveButton, fields: {puzzle: board, options: [dictionary, minLength],
        "options.dictionary": dictionary, "options.min_length": minLength}});
    }
  };

  const shake = async () => {
    errors.clear();
    const body = {algorithm: dice.value};
    if (seed.value !== "") body.seed = Number(seed.value);
    try {
      const made = await api(`kinds/${catalogue.kind}/generate`, body);
      board.value = made.text.replaceAll(" / ", "\n").replaceAll("/", "\n");
      seed.placeholder = `random (last: ${made.seed})`;
      madeLine.show(made);
    } catch (error) {
      madeLine.clear();
      errors.show(error, {control: shakeButton, fields: {algorithm: dice, seed}});
      return;
    }
    await solve();
  };

  const tiles = () => state.answer.result.boggle.board;
  const tile = (r, c) => grid.children[r * tiles()[0].length + c];

  const drawBoard = () => {
    const rows = tiles();
    grid.style.gridTemplateColumns = `repeat(${rows[0].length}, var(--tile))`;
    grid.replaceChildren(...rows.flatMap((row, r) => row.map((letters, c) =>
      h("div", {class: "tile", dataset: {r, c}, text: letters || "·"}))));
    highlight(null);
  };

  /** Draw a path on the board: tiles numbered in order, a line through their centres. */
  const highlight = (path, kind = "word") => {
    for (const node of grid.children) { node.classList.remove("on", "first", "drag"); delete node.dataset.step; }
    overlay.replaceChildren();
    if (!path || !path.length) return;
    const box = boardBox.getBoundingClientRect();
    overlay.setAttribute("width", box.width);
    overlay.setAttribute("height", box.height);
    const points = path.map(([r, c], i) => {
      const node = tile(r, c);
      node.classList.add(kind === "drag" ? "drag" : "on");
      if (!i) node.classList.add("first");
      node.dataset.step = i + 1;
      const rect = node.getBoundingClientRect();
      return `${rect.left - box.left + rect.width / 2},${rect.top - box.top + rect.height / 2}`;
    });
    overlay.append(h("svg:polyline", {points: points.join(" "), class: kind === "drag" ? "drag" : "word"}));
  };

  const drawWords = () => {
    const data = state.answer.result.boggle;
    const words = data.words.map((w) => ({...w, length: [...w.word].length}));
    const [key, direction] = state.sort;
    const wanted = filter.value.trim().toUpperCase();
    const shown = words.filter((w) => !wanted || w.word.includes(wanted)).sort((a, b) =>
      (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0) * direction || (a.word < b.word ? -1 : 1));
    summary.replaceChildren(
      h("strong", {text: `${count(data.count)} words, ${count(data.score)} points`}),
      ` — dictionary ${data.dictionary}, at least ${data.min_length} letters` +
        (data.best ? `; best: ${data.best}` : "") + (data.complete ? "" : " (stopped early: the board may have more)"),
      h("span", {class: "hint", text: ` · ${state.answer.choice.label}, ${state.answer.result.stats.seconds.toFixed(4)} s`}));
    const header = (label, name) => h("th", {class: "sortable" + (key === name ? " sorted" : ""),
      text: label + (key === name ? (direction > 0 ? " ▲" : " ▼") : ""), dataset: {sort: name},
      onclick: () => { state.sort = [name, key === name ? -direction : (name === "word" ? 1 : -1)]; drawWords(); }});
    table.replaceChildren(
      h("thead", {}, h("tr", {}, header("word", "word"), header("letters", "length"), header("score", "score"))),
      h("tbody", {}, shown.map((w) => h("tr", {
        class: state.pinned === w.word ? "pinned" : "", dataset: {word: w.word},
        onmouseenter: () => highlight(w.path), onmouseleave: () => highlight(pinnedPath()),
        onclick: () => { state.pinned = state.pinned === w.word ? null : w.word; drawWords(); highlight(pinnedPath()); },
      }, h("td", {text: w.word}), h("td", {text: w.length}), h("td", {text: w.score})))));
  };
  const pinnedPath = () => state.answer?.result.boggle.words.find((w) => w.word === state.pinned)?.path || null;

  // -- dragging across tiles, as in the real game --------------------------------------------
  const tileAt = (event) => document.elementFromPoint(event.clientX, event.clientY)?.closest?.(".tile");
  grid.addEventListener("pointerdown", (event) => {
    const node = event.target.closest(".tile");
    if (!node || !state.answer) return;
    event.preventDefault();
    state.drag = [[Number(node.dataset.r), Number(node.dataset.c)]];
    highlight(state.drag, "drag");
  });
  document.addEventListener("pointermove", (event) => {
    if (!state.drag) return;
    const node = tileAt(event);
    if (!node || !grid.contains(node)) return;
    const box = node.getBoundingClientRect();  // near the tile's centre only, so that a
    const dx = event.clientX - box.left - box.width / 2;  // diagonal move does not catch
    const dy = event.clientY - box.top - box.height / 2;  // the tiles beside its corner
    if (Math.hypot(dx, dy) > box.width * 0.42) return;
    const cell = [Number(node.dataset.r), Number(node.dataset.c)];
    const last = state.drag.at(-1);
    const back = state.drag.at(-2);
    if (back && back[0] === cell[0] && back[1] === cell[1]) { state.drag.pop(); highlight(state.drag, "drag"); return; }
    if (state.drag.some(([r, c]) => r === cell[0] && c === cell[1]) || !adjacent(last, cell)) return;
    state.drag.push(cell);
    highlight(state.drag, "drag");
  });
  document.addEventListener("pointerup", () => {
    if (!state.drag) return;
    const path = state.drag;
    state.drag = null;
    check(path);
  });

  const check = (path) => {
    const data = state.answer.result.boggle;
    const word = path.map(([r, c]) => data.board[r][c]).join("").toUpperCase();
    const found = data.words.find((w) => w.word === word);
    verdict.className = "verdict " + (found ? "good" : "bad");
    if (found) {
      verdict.textContent = `✓ ${word}: ${found.score} point${found.score === 1 ? "" : "s"}`;
      highlight(path);
    } else if ([...word].length < data.min_length) {
      verdict.textContent = `✗ ${word}: too short (at least ${data.min_length} letters)`;
    } else {
      verdict.textContent = data.complete ? `✗ ${word} is not a word of dictionary ${data.dictionary}`
        : `✗ ${word} is not among the words found so far`;
    }
  };

  filter.addEventListener("input", drawWords);
  solveButton.addEventListener("click", solve);
  shakeButton.addEventListener("click", shake);
  root.replaceChildren(
    h("aside", {class: "controls"},
      h("h2", {text: "Boggle"}),
      field("board", board, "Rows on lines or split by /; tiles by spaces when one has several letters (Qu)"),
      solveButton,
      h("h3", {text: "Shake"}),
      field("dice", dice), field("seed", seed),
      shakeButton, madeLine.element,
      h("h3", {text: "Words"}),
      field("dictionary", dictionary), field("shortest word", minLength)),
    view);
  minLength.value = "2";
  await solve();
}
