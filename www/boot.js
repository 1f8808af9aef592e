// boot.js — a classic (non-module) script that runs where app.js cannot: it explains, on the
// page, why nothing loads when the page is opened from file:// (browsers refuse module scripts
// and workers there) or in a browser without JavaScript modules.
(function () {
  var reason = null;
  if (location.protocol === "file:") {
    reason = [
      "This page must be served over http",
      "Browsers do not run module scripts, Web Workers or WebAssembly downloads from file:// pages.",
      "Run ./build.sh serve and open http://127.0.0.1:8000/.",
    ];
  } else if (!("noModule" in HTMLScriptElement.prototype)) {
    reason = [
      "This browser is too old for this page",
      "The page needs JavaScript modules, Web Workers and WebAssembly.",
      "Use a current Chrome, Firefox, Safari or Edge.",
    ];
  }
  if (!reason) return;
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("error");
    var parts = [
      ["h2", reason[0]],
      ["p", reason[1]],
      ["p", reason[2]],
    ];
    for (var i = 0; i < parts.length; i++) {
      var e = document.createElement(parts[i][0]);
      e.textContent = parts[i][1];
      e.className = i === 1 ? "message" : i === 2 ? "hint" : "";
      box.appendChild(e);
    }
    box.setAttribute("data-kind", location.protocol === "file:" ? "file" : "browser");
    box.hidden = false;
    document.body.setAttribute("data-state", "error");
    document.getElementById("load").classList.add("failed");
  });
})();
