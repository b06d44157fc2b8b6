// lacak's pages: for each kind, the page its plugin ships (a lacak.Page: GET /api/kinds says
// where its script and styles are, served under /pages/KIND/), or the generic page for a kind
// without one (#/kind/NAME shows the generic page of any kind). No kind is named here.
//
// A kind's page is an ES module whose default export is async (root, catalogue): it fills the
// element root with the page of the kind's catalogue (GET /api/kinds/KIND), using the shared
// helpers of /static/ui.js and /static/generic.js. Its stylesheets are in the document only
// while it is shown, and loaded before it runs.

import {genericPage} from "./generic.js";
import {api, h, showError} from "./ui.js";

let kinds = [];

const hrefOf = (k) => (k.page ? `#/${k.kind}` : `#/kind/${k.kind}`);

function nav(current) {
  const links = kinds.map((k) => h("a", {href: hrefOf(k), class: current === k.kind ? "current" : "",
    dataset: {kind: k.kind}, text: k.page ? k.page.title : k.kind, title: k.description}));
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
      h("a", {href: hrefOf(k), text: k.kind}),
      ` — ${k.description} `, h("span", {class: "hint", text: `(plugin ${k.plugin}; `}),
      h("a", {href: `#/kind/${k.kind}`, class: "hint", text: "generic page"}), h("span", {class: "hint", text: ")"}))))));
}

/** Make the document's page stylesheets these (addresses), each loaded before this resolves. */
function useStyles(urls) {
  const wanted = new Set(urls);
  const present = new Map();
  for (const link of document.head.querySelectorAll("link[data-page-style]")) {
    if (wanted.has(link.getAttribute("href"))) present.set(link.getAttribute("href"), link);
    else link.remove();
  }
  return Promise.all(urls.filter((url) => !present.has(url)).map((url) => new Promise((resolve, reject) => {
    const link = h("link", {rel: "stylesheet", href: url, dataset: {pageStyle: "yes"}});
    link.addEventListener("load", resolve);
    link.addEventListener("error", () => reject(new Error(`the page's stylesheet ${url} did not load`)));
    document.head.append(link);
  })));
}

/** The function that draws a kind's own page: its script's default export. */
async function ownPage(page) {
  await useStyles(page.styles);
  let module;
  try {
    module = await import(page.script);
  } catch (error) {
    throw new Error(`the page's script ${page.script} did not load: ${error.message}`);
  }
  if (typeof module.default !== "function") {
    throw new Error(`the page's script ${page.script} has no default export to draw the page`);
  }
  return module.default;
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
    if (!kind) { await useStyles([]); home(root); return; }
    const catalogue = await api(`kinds/${encodeURIComponent(kind)}`);
    const own = !generic && catalogue.page;
    const page = own ? await ownPage(catalogue.page) : genericPage;
    if (!own) await useStyles([]);
    root.dataset.kind = kind;
    root.className = `page ${own ? kind : "generic"}`;
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
