// A finished game's record as a link that downloads it (the history and the result panel):
// from a server, GET /api/games/{id}?download=1; from the page's own engine, which keeps its
// games on the device (offline/games.js), the record is asked of it and saved as a file
// (`api`: how to ask; a game kept on this device, listed beside a server's, is asked of it).

import { el } from "./dom.js";

export function recordLink(ctx, id, label, props = {}, api = ctx.api) {
  const name = `trumps-game-${id}.json`;
  if (!ctx.catalog?.offline && api === ctx.api) {
    return el("a", { ...props, href: `/api/games/${encodeURIComponent(id)}?download=1`, download: name }, label);
  }
  const link = el("a", { ...props, href: "#", download: name }, label);
  link.addEventListener("click", async (e) => {
    if (link.href.startsWith("blob:")) return; // made already: the browser saves it
    e.preventDefault();
    try {
      const record = await api(`/api/games/${encodeURIComponent(id)}`);
      link.href = URL.createObjectURL(new Blob([JSON.stringify(record, null, 2)], { type: "application/json" }));
      link.click();
    } catch (err) {
      ctx.status(err.message, "error");
    }
  });
  return link;
}
