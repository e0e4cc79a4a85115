// Sharing the night: the phone's share sheet with the night's card where it takes files, else its
// share sheet with the text, else LINE's share link. The card is fetched when the page loads: a
// share with files must start inside the tap. And copy buttons: the text to the clipboard, or
// shown to copy by hand where there is none.
(() => {
  "use strict";

  const shareButton = document.querySelector("button[data-share]");
  if (shareButton) {
    let card = null;
    fetch(shareButton.dataset.card, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (blob) card = new File([blob], "scorekeeper.png", { type: "image/png" });
        shareButton.dataset.cardReady = ""; // a tap from now on shares the card
      })
      .catch(() => {});
    shareButton.addEventListener("click", async () => {
      const { title, text, url, line } = shareButton.dataset;
      const shared = { title, text, url };
      const withCard = card ? { ...shared, files: [card] } : null;
      try {
        if (withCard && navigator.canShare && navigator.canShare(withCard)) {
          await navigator.share(withCard);
          return;
        }
        if (navigator.share) {
          await navigator.share(shared);
          return;
        }
      } catch (error) {
        if (error.name === "AbortError") return; // the sheet was closed: nothing to do
      }
      location.assign(line);
    });
  }

  document.addEventListener("click", async (event) => {
    const copy = event.target.closest("button[data-copy]");
    if (!copy) return;
    try {
      await navigator.clipboard.writeText(copy.dataset.copy);
      copy.textContent = copy.dataset.copied;
    } catch {
      window.prompt("", copy.dataset.copy); // no clipboard here: the text to copy by hand
    }
  });
})();
