// The end of a game. A phone's number pad may have no minus: ± turns the points negative and
// back. The knocker has no points: their row steps aside, and the first loser's points take the
// focus, so an ordinary game is a tap on the knocker, the points, Save.
(() => {
  "use strict";

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
