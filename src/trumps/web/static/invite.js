// An invite link's first question: the name the other players will see, asked once of a
// visitor who never chose one (a guest may go on as "Guest"); then the link seats them.

import { el } from "./dom.js";
import { t } from "./i18n.js";

/** Ask for a name in a modal dialog; done(name) with the name typed, or "" to go on as a
 *  guest. */
export function askName(done) {
  const name = el("input", { id: "invite-name", testid: "invite-name", maxlength: 32, autocomplete: "nickname",
    placeholder: t("Guest") });
  let answered = false;
  const answer = (value) => {
    if (answered) return;
    answered = true;
    dialog.close();
    dialog.remove();
    done(value);
  };
  const dialog = el("dialog", { class: "invite-dialog", testid: "invite-dialog", "aria-labelledby": "invite-title" },
    el("form", { method: "dialog", onsubmit: (e) => { e.preventDefault(); answer(name.value.trim()); } },
      el("h2", { id: "invite-title" }, t("You are invited to a table")),
      el("p", {}, el("label", { for: "invite-name" }, t("What should the other players call you?"))),
      name,
      el("p", { class: "inline" },
        el("button", { type: "submit", class: "primary", testid: "invite-join" }, t("Take my seat")),
        el("button", { type: "button", class: "ghost", testid: "invite-guest", onclick: () => answer("") },
          t("Play as a guest")))));
  // Escape closes a dialog: the visitor goes on as a guest rather than being left seatless.
  dialog.addEventListener("cancel", (e) => { e.preventDefault(); answer(""); });
  document.body.append(dialog);
  dialog.showModal();
  name.focus();
}
