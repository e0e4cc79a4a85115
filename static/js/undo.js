// The undo of a save lasts a minute (services/games.py): its button goes when the minute does,
// checked every second and as soon as a poll brings an offer in.
(() => {
  "use strict";

  function expire(content) {
    const selector = "[data-until]";
    const offers = content.matches(selector) ? [content] : content.querySelectorAll(selector);
    for (const offer of offers) {
      if (Date.now() / 1000 > Number(offer.dataset.until)) offer.hidden = true;
    }
  }

  setInterval(() => expire(document.body), 1000);
  htmx.onLoad(expire);
})();
