// The table follows every phone: htmx polls each [data-live] region every 2 s, and at once when
// the page is shown again or the connection returns (their hx-trigger), and swaps it whole. A
// poll is skipped while the page is hidden, and while a form in the region has a field in focus
// or a value changed, so that nothing being entered is wiped. htmx cannot say so itself: its
// trigger filters are evaluated code, which the page's policy forbids.
(() => {
  "use strict";

  function changed(field) {
    if (field.type === "radio" || field.type === "checkbox") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      return [...field.options].some((option) => option.selected !== option.defaultSelected);
    }
    if (field.type === "hidden" || field.tagName === "BUTTON") return false;
    return "defaultValue" in field && field.value !== field.defaultValue;
  }

  function editing(region) {
    const focused = document.activeElement;
    if (focused && region.contains(focused) && focused.matches("input, select, textarea")) {
      return true;
    }
    return [...region.querySelectorAll("form")].some((form) => [...form.elements].some(changed));
  }

  document.addEventListener("htmx:beforeRequest", (event) => {
    const region = event.detail.elt;
    if (!region.matches("[data-live]") || event.detail.requestConfig.verb !== "get") return;
    if (document.hidden || editing(region)) event.preventDefault();
  });
})();
