// Two small DOM helpers shared by the page's modules.

export const $ = (sel, root = document) => root.querySelector(sel);

export function strong(text) {
  const b = document.createElement("b");
  b.textContent = text;
  return b;
}
