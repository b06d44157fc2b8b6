// Shared pieces of lacak's pages: the API, DOM helpers, option forms, search trees.
// Plain ES modules: no build step, nothing loaded from anywhere but this server.
// With generic.js and app.css, the page API of lacak serve: what a plugin's page imports
// from /static/ui.js (docs/web.md, "A page of your own"); its exports keep working.

const SVG = "http://www.w3.org/2000/svg";

/** Call the JSON API: GET without a body, POST with one. Throws an Error carrying the
 *  server's one-line message, .status and .field (the part of the request it is about,
 *  "puzzle", "size", "options.goal", or null) on any answer other than 2xx. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch("/api/" + path, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.detail) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.field = (data && typeof data.field === "string") ? data.field : null;
    throw error;
  }
  return data;
}

/** An HTML element (or an SVG one when tag starts with "svg:"): h("div", {class: "x",
 *  onclick: f, text: "hi"}, child, ...). */
export function h(tag, props = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const node = svg ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.setAttribute("class", value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && !svg && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A labelled form field. */
export function field(label, input, help) {
  return h("label", {class: "field", title: help || undefined},
    h("span", {class: "label", text: label}), input);
}

/** A <select> of items ([value, label] pairs or strings). */
export function select(items, value, props = {}) {
  const node = h("select", props);
  for (const item of items) {
    const [v, label] = Array.isArray(item) ? item : [item, item];
    node.append(h("option", {value: v, text: label}));
  }
  if (value !== undefined && value !== null) node.value = value;
  return node;
}

/** Inputs for a component's options ([{name, default, help, accepts}]): a checkbox for
 *  yes/no options, a list for one of fixed words, a number box for numbers (bounded as
 *  declared), a text box otherwise. values() gives the options that differ from their
 *  defaults, as text (what the API and -O KEY=VALUE take). */
export function optionInputs(options, {ranges = {}, prefix = ""} = {}) {
  const inputs = [];
  const box = h("div", {class: "options"});
  for (const option of options || []) {
    const accepts = option.accepts || {};
    const range = ranges[option.name] || {};
    const choices = range.choices || (accepts.type === "one-of" ? accepts.values : null);
    let input;
    if (typeof option.default === "boolean") {
      input = h("input", {type: "checkbox", checked: option.default});
    } else if (choices) {
      input = select(choices, option.default);
    } else if (typeof option.default === "number") {
      input = h("input", {type: "number", value: String(option.default),
        step: Number.isInteger(option.default) ? "1" : "any", min: range.min ?? accepts.minimum,
        max: range.max ?? accepts.maximum});
    } else {
      input = h("input", {type: "text", placeholder: option.default === null ? "(default)" :
        String(option.default), value: ""});
    }
    input.name = prefix + option.name;
    inputs.push([option, input]);
    box.append(field(option.name.replaceAll("_", " "), input, option.help));
  }
  return {
    element: box,
    /** The inputs by the request field each fills ("options.goal"), for errorDisplay. */
    fields(field = "options") {
      return Object.fromEntries(inputs.map(([option, input]) => [`${field}.${option.name}`, input]));
    },
    values() {
      const out = {};
      for (const [option, input] of inputs) {
        let text;
        if (input.type === "checkbox") {
          if (input.checked === option.default) continue;
          text = input.checked ? "true" : "false";
        } else {
          text = input.value.trim();
          if (text === "" || text === String(option.default)) continue;
        }
        out[option.name] = text;
      }
      return out;
    },
  };
}

/** A heuristic picker: "best for the instance", "none", or a heuristic with its options.
 *  spec() gives what the API takes ("weighted:w1=1,w2=2"), or null for the default. */
export function heuristicPicker(heuristics, {name = "heuristic"} = {}) {
  const choices = [["", "best for the instance"], ["none", "none"],
    ...heuristics.map((x) => [x.name, x.name + (x.admissible ? "" : " (not admissible)")])];
  const picker = select(choices, "", {name});
  const optionsBox = h("div");
  let inputs = null;
  const byName = Object.fromEntries(heuristics.map((x) => [x.name, x]));
  const refresh = () => {
    const chosen = byName[picker.value];
    inputs = chosen && chosen.options.length ? optionInputs(chosen.options, {prefix: name + "-"}) : null;
    optionsBox.replaceChildren(inputs ? inputs.element : "");
  };
  picker.addEventListener("change", refresh);
  return {
    element: h("div", {}, field("heuristic", picker), optionsBox),
    picker,
    /** The picker by the request field it fills, for errorDisplay. */
    fields(field = "heuristic") {
      return {[field]: picker};
    },
    spec() {
      if (!picker.value) return null;
      const values = inputs ? inputs.values() : {};
      const text = Object.entries(values).map(([k, v]) => `${k}=${v}`).join(",");
      return text ? `${picker.value}:${text}` : picker.value;
    },
  };
}

/** A strategy picker: "best for the instance" or a registered strategy. */
export function strategyPicker(strategies, {name = "strategy", value = ""} = {}) {
  const choices = [["", "best for the instance"],
    ...strategies.map((s) => [s.name, s.name + (s.optimal ? " (optimal)" : "")])];
  const picker = select(choices, value, {name});
  picker.title = "Strategies registered for this kind (generic ones included)";
  return picker;
}

/** Limit inputs: max depth, max nodes, seconds. values() gives the API's limits object. */
export function limitInputs({depth = "", nodes = "", seconds = ""} = {}) {
  const depthIn = h("input", {type: "number", min: "0", step: "1", value: depth, name: "max_depth",
    placeholder: "none"});
  const nodesIn = h("input", {type: "number", min: "0", step: "1", value: nodes, name: "max_nodes",
    placeholder: "server's cap"});
  const secondsIn = h("input", {type: "number", min: "0", step: "any", value: seconds,
    name: "seconds", placeholder: "default"});
  return {
    element: h("div", {class: "row"}, field("max depth", depthIn), field("max nodes", nodesIn),
      field("seconds", secondsIn)),
    /** The inputs by the request field each fills ("limits.max_depth"), for errorDisplay. */
    fields() {
      return {"limits.max_depth": depthIn, "limits.max_nodes": nodesIn, "limits.seconds": secondsIn};
    },
    values() {
      const out = {};
      if (depthIn.value !== "") out.max_depth = Number(depthIn.value);
      if (nodesIn.value !== "") out.max_nodes = Number(nodesIn.value);
      if (secondsIn.value !== "") out.seconds = Number(secondsIn.value);
      return out;
    },
  };
}

/** Show an error (or clear it with null) in a message box. */
export function showError(box, error) {
  box.replaceChildren(error ? h("div", {class: "error", role: "alert", text: error.message || String(error)}) : "");
}

let errorIds = 0;

/** How every page shows that a request failed, where the eye is: the message next to the
 *  control that caused it (the input of the request field the server's answer names, its
 *  .field, else the button or box that sent the request) and at the top of the result
 *  area, view, where the result still shown is dimmed and labelled as the previous one
 *  until the next result replaces it. The message at the top is the one screen readers
 *  announce (role="alert"); the one by the control is tied to it (aria-describedby, and
 *  aria-invalid on an input), so it is read with the control.
 *
 *    const errors = errorDisplay(view, {hasResult: () => state.answer !== null});
 *    errors.clear();   // as a request starts: the messages go, the result is current again
 *    try { ... } catch (error) {
 *      errors.show(error, {control: button, fields: {puzzle: box, ...limits.fields()}});
 *    }
 *
 *  fields maps request fields ("puzzle", "size", "options.goal") to the element, or list
 *  of elements, that fills each; a field not listed falls back to its parent ("options"
 *  for "options.goal"), then to control. hasResult tells whether the view shows a result
 *  (default: whether it has any text or picture). {stale: false} leaves the result as
 *  current (an error that does not concern it, as a failed download). */
export function errorDisplay(view, {hasResult = null} = {}) {
  let undo = [];
  const shown = () => (hasResult ? hasResult() : [...view.children].some((child) =>
    !child.matches(".result-error") && (child.textContent.trim() || child.querySelector("canvas, img, svg"))));
  const clear = () => {
    for (const step of undo.reverse()) step();
    undo = [];
    view.classList.remove("stale");
  };
  const culprits = (error, fields) => {
    for (let name = error && error.field; name; name = name.slice(0, Math.max(0, name.lastIndexOf(".")))) {
      const found = fields[name];
      if (found) return [].concat(found).filter(Boolean);
    }
    return [];
  };
  const show = (error, {control = null, fields = {}, stale = true} = {}) => {
    clear();
    const text = (error && error.message) || String(error);
    const named = culprits(error, fields);
    const by = named.length ? named : [control].filter(Boolean);
    if (by.length) {
      const id = `error-${++errorIds}`;
      // after the control's field, or after the row of fields or buttons it is in (when it
      // holds every control named), so that the message has the width of the form
      const box = by[by.length - 1].closest(".field, .check") || by[by.length - 1];
      const row = box.parentElement && box.parentElement.matches(".row") ? box.parentElement : null;
      const anchor = row && by.every((node) => row.contains(node)) ? row : box;
      const note = h("div", {class: "error field-error", id, text,
        dataset: {field: named.length ? error.field : ""}});
      anchor.after(note);
      undo.push(() => note.remove());
      for (const node of by) {
        const described = node.getAttribute("aria-describedby");
        const input = /^(INPUT|SELECT|TEXTAREA)$/.test(node.tagName);
        node.setAttribute("aria-describedby", described ? `${described} ${id}` : id);
        if (input) node.setAttribute("aria-invalid", "true");
        undo.push(() => {
          if (described) node.setAttribute("aria-describedby", described);
          else node.removeAttribute("aria-describedby");
          if (input) node.removeAttribute("aria-invalid");
        });
      }
      note.scrollIntoView({block: "nearest"});
    }
    const previous = stale && shown();
    const box = h("div", {class: "result-error"},
      h("div", {class: "error", role: "alert", text}),
      previous ? h("p", {class: "previous-label",
        text: "Below, dimmed: the previous result, from before this failed request."}) : "");
    view.prepend(box);
    undo.push(() => box.remove());
    view.classList.toggle("stale", previous);
  };
  return {clear, show};
}

/** "1,234": a count as people read it. */
export const count = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString("en"));

/** Integers in a state's text: "[3, 4]" or "3,4" → [3, 4]. */
export const numbers = (text) => (String(text).match(/-?\d+/g) || []).map(Number);

/** What makes a generated instance again (the generate answer's generator, size, seed
 *  and options) as a caption, "random 4x4, seed 3, moves=50", and a file name. */
export function madeWith(made) {
  const options = optionPairs(made.options);
  const given = made.size ?? (made.instance || {}).size;  // (else the generator's own)
  const shape = Array.isArray(given) ? given.join("x") : given;
  const size = shape ? ` ${shape}` : "";
  const caption = [`${made.algorithm}${size}`, `seed ${made.seed}`, ...options].join(", ");
  const name = fileSafe([made.algorithm, shape, `seed${made.seed}`, ...options]
    .filter(Boolean).join("-"));
  return {caption, name};
}

/** A generator's options as `-O` takes them: `["hunt=columns", "loops=yes"]`. */
export const optionPairs = (options) => Object.entries(options || {})
  .map(([key, value]) => `${key}=${value === true ? "yes" : value === false ? "no" : value}`);

/** ``text`` fit for a file name: what is not a letter, digit or ``._=-`` becomes ``_``. */
export const fileSafe = (text) => text.replace(/[^A-Za-z0-9._=-]/g, "_");

/** A line that says what made an instance, with a button that saves its JSON (what
 *  `--from FILE` makes again); ``show(made)`` fills it, ``clear()`` empties it. */
export function madeNote(id) {
  const text = h("span", {class: "made-text"});
  const save = h("button", {type: "button", id: `${id}-save`, text: "save JSON"});
  const box = h("p", {class: "made", id}, text, " ", save);
  box.hidden = true;
  let current = null;
  save.addEventListener("click", () => {
    if (current) download(`${madeWith(current).name}.json`,
      JSON.stringify(current.instance, null, 2) + "\n", "application/json");
  });
  return {
    element: box,
    show(made) {
      current = made;
      text.textContent = `made: ${madeWith(made).caption}`;
      box.dataset.made = madeWith(made).caption;
      save.hidden = !made.instance;
      box.hidden = false;
    },
    clear() { current = null; box.hidden = true; delete box.dataset.made; },
  };
}

/** A file download of text or a Blob. */
export function download(name, data, type) {
  const blob = data instanceof Blob ? data : new Blob([data], {type});
  const url = URL.createObjectURL(blob);
  const link = h("a", {href: url, download: name});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A table of a search's counts: one row per [label, result] pair. */
export function statsTable(rows) {
  const head = ["search", "found", "moves", "expanded", "generated", "max frontier", "depth", "seconds"];
  return h("table", {class: "stats"},
    h("thead", {}, h("tr", {}, head.map((x) => h("th", {text: x})))),
    h("tbody", {}, rows.map(([label, r]) => h("tr", {},
      h("td", {text: label}), h("td", {text: r.found ? "yes" : `no (${r.stopped})`}),
      h("td", {text: r.found ? count(r.length) : "–"}), h("td", {text: count(r.stats.expanded)}),
      h("td", {text: count(r.stats.generated)}), h("td", {text: count(r.stats.max_frontier)}),
      h("td", {text: count(r.stats.depth)}), h("td", {text: r.stats.seconds.toFixed(4)})))));
}

/** A search tree (SearchTrace.to_dict()) as an SVG picture, drawn like the course notes:
 *  children under their parent, leaves left to right, each node numbered in the order it
 *  was expanded, with g and h; the path to the goal drawn thick, nodes never expanded dashed.
 *  paint(group, node, width, height) draws a node's state inside its box. */
export function drawTree(trace, {paint, width = 90, height = 70} = {}) {
  const nodes = trace.nodes;
  const byParent = new Map();
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) {
    const parent = ids.has(n.parent) ? n.parent : null;
    if (!byParent.has(parent)) byParent.set(parent, []);
    byParent.get(parent).push(n);
  }
  const x = new Map();
  let leaf = 0;
  const place = (root) => {
    const stack = [[root, false]];
    while (stack.length) {
      const [node, done] = stack.pop();
      const children = byParent.get(node.id) || [];
      if (done || !children.length) {
        x.set(node.id, children.length
          ? (x.get(children[0].id) + x.get(children[children.length - 1].id)) / 2 : leaf++);
        continue;
      }
      stack.push([node, true]);
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], false]);
    }
  };
  for (const root of byParent.get(null) || []) place(root);
  const onPath = new Set();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const n of nodes) {
    if (!n.goal) continue;
    for (let at = n; at; at = byId.get(at.parent)) onPath.add(at.id);
  }
  const top = Math.min(...nodes.map((n) => n.depth));
  const levels = Math.max(...nodes.map((n) => n.depth)) - top + 1;
  const label = 16, gapX = 10, gapY = 34;
  const boxH = height + label;
  const W = Math.max(leaf, 1) * (width + gapX) + gapX, H = levels * (boxH + gapY) + gapY;
  const corner = (n) => [gapX + x.get(n.id) * (width + gapX), gapY / 2 + (n.depth - top) * (boxH + gapY)];
  const svg = h("svg:svg", {width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: "tree"});
  for (const n of nodes) {
    if (!byId.has(n.parent)) continue;
    const [px, py] = corner(byId.get(n.parent));
    const [cx, cy] = corner(n);
    const thick = onPath.has(n.id);
    svg.append(h("svg:line", {x1: px + width / 2, y1: py + boxH, x2: cx + width / 2, y2: cy,
      class: thick ? "edge path" : "edge"}));
    if (n.action !== null) {
      svg.append(h("svg:text", {x: (px + cx + width) / 2 + 3, y: (py + boxH + cy) / 2 + 4,
        class: "action", text: n.action}));
    }
  }
  for (const n of nodes) {
    const [cx, cy] = corner(n);
    const group = h("svg:g", {transform: `translate(${cx},${cy})`, "data-id": String(n.id),
      class: ["node", n.order ? "expanded" : "unexpanded", onPath.has(n.id) ? "path" : "",
        n.goal ? "goal" : "", byId.has(n.parent) ? "" : "root"].filter(Boolean).join(" ")});
    group.append(h("svg:rect", {width, height: boxH, rx: 4, class: "box"}));
    group.append(h("svg:title", {text: `${n.state}  depth ${n.depth}, g ${n.g}` +
      (n.h === null ? "" : `, h ${n.h}`) + (n.order ? `, expanded #${n.order}` : ", not expanded")}));
    const inner = h("svg:g", {transform: `translate(0,${label})`});
    paint(inner, n, width, height);
    group.append(inner);
    const numbers = (n.label ? `${n.label} ` : n.order ? `#${n.order} ` : "") + `g=${n.g}` +
      (n.h === null ? "" : ` h=${n.h}`);
    group.append(h("svg:text", {x: 4, y: 12, class: "numbers", text: numbers}));
    svg.append(group);
  }
  return svg;
}

/** A search tree's picture (drawTree's) in a box that scrolls, opened on its root: as
 *  the box first shows, it is scrolled so that the root (drawn above the middle of its
 *  leaves, far from the left edge of a wide tree) is in view. */
export function treeScroll(svg) {
  const box = h("div", {class: "tree-scroll"}, svg);
  const observer = new ResizeObserver(() => {
    if (!box.clientWidth) return;  // not shown yet
    observer.disconnect();
    const root = svg.querySelector("g.node.root");
    if (!root) return;
    const where = root.getBoundingClientRect(), frame = box.getBoundingClientRect();
    const middle = where.left - frame.left + box.scrollLeft + where.width / 2;
    box.scrollLeft = Math.max(0, middle - box.clientWidth / 2);
    box.scrollTop = 0;
  });
  observer.observe(box);
  return box;
}

/** A tree node painter that writes the state's text. */
export function paintText(group, node, width, height) {
  const text = String(node.state);
  const lines = text.length > 14 ? [text.slice(0, 14), text.slice(14, 28) + (text.length > 28 ? "…" : "")] : [text];
  lines.forEach((line, i) => group.append(h("svg:text", {x: width / 2, y: height / 2 + (i - (lines.length - 1) / 2) * 14 + 4,
    class: "state", "text-anchor": "middle", text: line})));
}

/** A search played step by step (answer.steps: {list, open, closed, truncated}, from the
 *  solve API's "steps"; answer.trace: the tree): the tree grows node by node (drawTree,
 *  painted by paint), the node taken is marked, and beside it the open and closed lists by
 *  letter, named as the search names them (best-first: the notes' antrian1 and antrian2).
 *  Play, pause, a step back or forward, the first and the last step, and a speed. */
export function stepPlayer(answer, {paint, width = 90, height = 70, maxNodes = 300} = {}) {
  const stepped = answer.steps;
  const steps = stepped.list;
  const nodes = answer.trace ? answer.trace.nodes : [];
  const labels = new Map();
  for (const s of steps) {
    labels.set(s.id, s.label);
    for (const c of s.children) if (c.id !== null) labels.set(c.id, c.label);
  }
  const name = (id) => labels.get(id) || `#${id}`;
  const player = {at: 0, timer: null};
  const treeBox = h("div", {class: "step-tree"});
  const lists = h("div", {class: "step-lists", id: "step-lists"});
  const where = h("span", {class: "position", id: "step-position"});
  const speed = h("input", {type: "range", min: "1", max: "10", value: "4", name: "speed",
    title: "speed: steps a second"});
  const play = h("button", {type: "button", text: "▶ play", id: "step-play"});
  const listLine = (title, ids, size, id) => h("div", {class: "step-list", id},
    h("strong", {text: `${title}: `}),
    h("span", {class: "letters", text: ids.map(name).join(" ") || "(empty)"}),
    size !== undefined && size > ids.length ? h("span", {class: "hint", text: ` … ${size - ids.length} more`}) : "");
  const draw = () => {
    const at = player.at;
    const shown = new Set(steps.length ? [steps[0].id] : []);
    const taken = new Map();
    for (let i = 0; i < at; i++) {
      const s = steps[i];
      shown.add(s.id);
      taken.set(s.id, i + 1);
      for (const c of s.children) if (c.id !== null) shown.add(c.id);
    }
    const subset = nodes.filter((n) => shown.has(n.id)).map((n) => ({...n,
      order: taken.get(n.id) || null, label: labels.get(n.id) || null,
      goal: n.goal && taken.has(n.id)}));
    const current = at ? steps[at - 1] : null;
    if (subset.length && subset.length <= maxNodes) {
      const svg = drawTree({nodes: subset}, {paint, width, height});
      if (current) svg.querySelector(`g.node[data-id="${current.id}"]`)?.classList.add("current");
      treeBox.replaceChildren(svg);
    } else {
      treeBox.replaceChildren(h("p", {class: "hint", text: subset.length
        ? `The tree has ${count(subset.length)} nodes at this step: too many to draw.` : ""}));
    }
    const pruned = current ? current.children.filter((c) => c.pruned) : [];
    lists.replaceChildren(
      h("p", {class: "step-node", id: "step-node", text: current
        ? `step ${at}: P = ${name(current.id)} ${current.node} (g=${current.g}` +
          `${current.h === null ? "" : `, h=${current.h}`})${current.goal ? " = goal" : ""}`
        : "before the first step: the start waits"}),
      listLine(stepped.open, current ? current.open_ids : (steps.length ? [steps[0].id] : []),
        current?.open_size, "open-list"),
      listLine(stepped.closed, current ? current.closed_ids : [], current?.closed_size, "closed-list"),
      pruned.length ? h("p", {class: "hint", text: "pruned: " +
        pruned.map((c) => `${c.state} (${c.pruned})`).join(", ")}) : "");
    where.textContent = `step ${at} of ${steps.length}` + (stepped.truncated ? " (the first recorded)" : "");
    box.dataset.step = String(at);
  };
  const go = (at) => { player.at = Math.max(0, Math.min(steps.length, at)); draw(); };
  const stop = () => {
    if (player.timer) clearTimeout(player.timer);
    player.timer = null;
    play.textContent = "▶ play";
  };
  const tick = () => {
    go(player.at + 1);
    if (player.at >= steps.length) { stop(); return; }
    player.timer = setTimeout(tick, 1000 / Number(speed.value));
  };
  play.addEventListener("click", () => {
    if (player.timer) { stop(); return; }
    if (player.at >= steps.length) go(0);
    play.textContent = "❚❚ pause";
    player.timer = setTimeout(tick, 1000 / Number(speed.value));
  });
  const buttons = h("div", {class: "row player"},
    h("button", {type: "button", text: "⇤", title: "before the first step", onclick: () => { stop(); go(0); }}),
    h("button", {type: "button", text: "◀", id: "step-back", title: "one step back", onclick: () => { stop(); go(player.at - 1); }}),
    play,
    h("button", {type: "button", text: "▶|", id: "step-next", title: "one step", onclick: () => { stop(); go(player.at + 1); }}),
    h("button", {type: "button", text: "⇥", title: "the last step", onclick: () => { stop(); go(steps.length); }}),
    h("label", {class: "check"}, "speed ", speed));
  const box = h("figure", {class: "step-player", id: "step-player"},
    h("figcaption", {text: "The search step by step: each node taken (P), its children, and the lists."}),
    buttons, where, h("div", {class: "step-view"}, treeScroll(treeBox), lists));
  box.stop = stop;
  draw();
  return box;
}
