// The end of a game. A phone's number pad may have no minus: ± turns the points negative and
// back. The knocker has no points: their row steps aside, and the first loser's points take the
// focus, so an ordinary game is a tap on the knocker, the points, Save.
//
// A save from a page of its own (the end of a game, a tie, a void, an event) brings the table's
// main part back in its place (hx-target="#main"), shown from the top: the page is scrolled up
// just before the swap, while it is still the page already laid out, so that the table coming in
// is laid out once, with the frame that draws it (htmx's show:window:top would lay it out in the
// swap and again for the frame: about 10 ms on a phone at a quarter of this machine's speed).
(() => {
  "use strict";

  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.shouldSwap && event.detail.target.id === "main") window.scrollTo(0, 0);
  });

  document.addEventListener("click", (event) => {
    const sign = event.target.closest("button.sign");
    if (!sign) return;
    const input = document.getElementById(sign.dataset.signFor);
    if (!input) return;
    const value = input.value.trim();
    input.value = /^[-−]/.test(value) ? value.replace(/^[-−]\s*/, "") : `-${value}`;
    input.dispatchEvent(new Event("input", { bubbles: true })); // the preview follows
    input.focus();
  });

  function markKnocker(form, focus) {
    const knocker = form.querySelector('input[name="knocker"]:checked');
    for (const row of form.querySelectorAll(".entry tr[data-player]")) {
      const is = knocker !== null && row.dataset.player === knocker.value;
      row.classList.toggle("knocker", is);
      const input = row.querySelector('input[name^="points_"]');
      if (input) input.disabled = is;
    }
    if (!focus) return;
    const next = [...form.querySelectorAll('.entry input[name^="points_"]')].find(
      (input) => !input.disabled && input.value === "",
    );
    if (next) next.focus();
  }

  document.addEventListener("change", (event) => {
    if (event.target.matches('input[name="knocker"]')) markKnocker(event.target.form, true);
  });

  // The form as the page comes, and as a refused save brings it back.
  htmx.onLoad((content) => {
    const forms = content.matches("form") ? [content] : content.querySelectorAll("form");
    for (const form of forms) {
      if (form.querySelector('input[name="knocker"]')) markKnocker(form, false);
    }
  });
})();
