// lacak's pages: a page of its own for mazes, Boggle and sliding puzzles, and the generic
// page for every other puzzle kind a plugin registers (#/kind/NAME works for any kind).

import {bogglePage} from "./boggle.js";
import {genericPage} from "./generic.js";
import {mazePage} from "./maze.js";
import {slidingPage} from "./sliding.js";
import {api, h, showError} from "./ui.js";

const PAGES = {maze: [mazePage, "Mazes"], boggle: [bogglePage, "Boggle"], sliding: [slidingPage, "Sliding"]};

let kinds = [];

function nav(current) {
  const links = kinds.map((k) => {
    const page = PAGES[k.kind];
    const href = page ? `#/${k.kind}` : `#/kind/${k.kind}`;
    return h("a", {href, class: current === k.kind ? "current" : "", dataset: {kind: k.kind},
      text: page ? page[1] : k.kind, title: k.description});
  });
  document.getElementById("nav").replaceChildren(
    h("a", {href: "#/", class: current === "" ? "current brand" : "brand", text: "lacak"}),
    ...links, h("a", {href: "/api/docs", class: "docs", text: "API docs"}));
}

function home(root) {
  root.replaceChildren(h("section", {class: "home"},
    h("h1", {text: "lacak: search and puzzle algorithms"}),
    h("p", {text: "Every puzzle kind the installed plugins register, with their generators, strategies " +
      "and heuristics. The pages use lacak's JSON API (/api/docs); the counts are the searches' own."}),
    h("ul", {class: "kinds"}, kinds.map((k) => h("li", {},
      h("a", {href: PAGES[k.kind] ? `#/${k.kind}` : `#/kind/${k.kind}`, text: k.kind}),
      ` — ${k.description} `, h("span", {class: "hint", text: `(plugin ${k.plugin}; `}),
      h("a", {href: `#/kind/${k.kind}`, class: "hint", text: "generic page"}), h("span", {class: "hint", text: ")"}))))));
}

async function route() {
  const root = document.getElementById("page");
  const [, first = "", second = ""] = location.hash.replace(/^#/, "").split("/");
  const generic = first === "kind";
  const kind = decodeURIComponent(generic ? second : first);
  nav(kind);
  root.className = "page";
  root.removeAttribute("data-solved");
  root.removeAttribute("data-ready");
  try {
    if (!kind) { home(root); return; }
    const catalogue = await api(`kinds/${encodeURIComponent(kind)}`);
    root.dataset.kind = kind;
    root.className = `page ${generic || !PAGES[kind] ? "generic" : kind}`;
    const page = !generic && PAGES[kind] ? PAGES[kind][0] : genericPage;
    await page(root, catalogue);
  } catch (error) {
    const box = h("div");
    root.replaceChildren(box);
    showError(box, error);
  } finally {
    root.dataset.ready = "yes";
  }
}

async function start() {
  try {
    kinds = await api("kinds");
  } catch (error) {
    showError(document.getElementById("page"), error);
    return;
  }
  window.addEventListener("hashchange", route);
  await route();
}

start();
