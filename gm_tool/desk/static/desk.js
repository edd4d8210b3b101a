// The desk's only script: copy buttons. A post's exact text is the value of its textarea.
"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest("button.copy");
  if (!button) return;
  var area = document.getElementById(button.dataset.copy);
  if (!area) return;
  var done = function () {
    button.textContent = button.dataset.done;
    button.classList.add("done");
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(area.value).then(done);
  } else {  // a desk reached by another address than 127.0.0.1 is no secure context
    area.focus();
    area.select();
    if (document.execCommand("copy")) done();
  }
});
