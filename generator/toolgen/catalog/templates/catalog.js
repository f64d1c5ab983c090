// toolgen catalog: the search of the index page and the provider tabs of a tool's page.
// No dependency, no network: it reads what the page embeds. The analyzer below is the
// runtime's (runtime/search/index.py: tokens, stem), so a query meets the index's terms.
"use strict";
(function () {
  var CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
  var RUN = /[\p{L}\p{Nl}\p{No}]+|\p{Nd}+/gu;
  var CAMEL = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+/g;
  var VOWEL = /[aeiouy]/;
  var ASCII_ALPHA = /^[A-Za-z]+$/;

  function undoubled(word) {
    var last = word.charAt(word.length - 1);
    if (word.length >= 4 && last === word.charAt(word.length - 2) && "aeiouylsz".indexOf(last) < 0) {
      return word.slice(0, -1);
    }
    return word;
  }

  function stem(word, ed) {
    if (word.length <= 3) return word;
    if (/ies$/.test(word) && word.length > 4) word = word.slice(0, -3) + "y";
    else if (/(sses|ches|shes|xes|zzes)$/.test(word)) word = word.slice(0, -2);
    else if (/s$/.test(word) && !/(ss|us|is)$/.test(word)) word = word.slice(0, -1);
    if (/ied$/.test(word) && word.length > 4) word = word.slice(0, -3) + "y";
    else if (/ing$/.test(word) && word.length >= 6 && VOWEL.test(word.slice(0, -3))) word = undoubled(word.slice(0, -3));
    else if (/ed$/.test(word) && word.length >= 5 && !ed.has(word) && word.charAt(word.length - 3) !== "e") word = undoubled(word.slice(0, -2));
    if (/e$/.test(word) && word.length > 3) word = word.slice(0, -1);
    return word;
  }

  // The runs of a text: CJK characters one by one, other letters together, digits together.
  function runs(text) {
    var out = [];
    (text.match(RUN) || []).forEach(function (run) {
      var rest = "";
      Array.from(run).forEach(function (ch) {
        if (CJK.test(ch)) {
          if (rest) out.push(rest);
          out.push(ch);
          rest = "";
        } else {
          rest += ch;
        }
      });
      if (rest) out.push(rest);
    });
    return out;
  }

  function tokens(text, stop, ed) {
    var out = [];
    runs(text).forEach(function (run) {
      var parts = ASCII_ALPHA.test(run) ? run.match(CAMEL) || [] : [run];
      parts.forEach(function (part) {
        var word = part.toLowerCase();
        if (stop.has(word) || (word.length === 1 && word.charCodeAt(0) < 128)) return;
        out.push(/^[a-z]+$/.test(word) ? stem(word, ed) : word);
      });
    });
    return out;
  }

  function setUpSearch() {
    var input = document.getElementById("search");
    var holder = document.getElementById("search-data");
    if (!input || !holder) return;
    var data = JSON.parse(holder.textContent);
    var stop = new Set(data.stop);
    var ed = new Set(data.ed);
    var tools = data.tools.map(function (tool) {
      return { name: tool.name, fields: tool.fields.map(function (f) { return f ? f.split(" ") : []; }) };
    });
    var items = Array.prototype.slice.call(document.querySelectorAll("li[data-tool]"));
    var status = document.getElementById("search-status");
    var none = document.getElementById("no-match");

    function score(tool, terms, partial) {
      var total = 0;
      for (var i = 0; i < terms.length; i++) {
        var best = 0;
        var last = i === terms.length - 1 && partial;
        tool.fields.forEach(function (field, f) {
          var hit = field.some(function (t) { return t === terms[i] || (last && t.indexOf(partial) === 0); });
          if (hit) best = Math.max(best, data.weights[f]);
        });
        if (!best) return 0;
        total += best;
      }
      return total;
    }

    function update() {
      var query = input.value;
      var terms = tokens(query, stop, ed);
      var words = query.toLowerCase().match(RUN) || [];
      var typing = words.length && !/\s$/.test(query) ? words[words.length - 1] : "";
      if (typing && terms.length === 0 && !stop.has(typing)) terms = [typing];
      var shown = {};
      var count = 0;
      tools.forEach(function (tool) {
        var ok = terms.length === 0 || score(tool, terms, typing) > 0;
        shown[tool.name] = ok;
        if (ok) count++;
      });
      items.forEach(function (li) { li.hidden = !shown[li.getAttribute("data-tool")]; });
      Array.prototype.slice.call(document.querySelectorAll("[data-group]")).reverse().forEach(function (group) {
        group.hidden = !group.querySelector("li[data-tool]:not([hidden])");
      });
      status.textContent = count + (count === 1 ? " tool" : " tools") + (terms.length ? " match" + (count === 1 ? "es" : "") : "");
      if (none) none.hidden = count !== 0;
    }

    input.addEventListener("input", update);
    if (input.value) update();
  }

  function setUpTabs() {
    Array.prototype.slice.call(document.querySelectorAll("[role=tablist]")).forEach(function (list) {
      var tabs = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
      function select(tab, focus) {
        tabs.forEach(function (other) {
          var on = other === tab;
          other.setAttribute("aria-selected", on ? "true" : "false");
          other.tabIndex = on ? 0 : -1;
          document.getElementById(other.getAttribute("aria-controls")).hidden = !on;
        });
        if (focus) tab.focus();
      }
      tabs.forEach(function (tab, i) {
        tab.addEventListener("click", function () { select(tab, false); });
        tab.addEventListener("keydown", function (event) {
          var next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
          if (next === undefined) return;
          event.preventDefault();
          select(tabs[(next + tabs.length) % tabs.length], true);
        });
      });
      var chosen = tabs.filter(function (t) { return t.getAttribute("aria-selected") === "true"; })[0];
      if (chosen) select(chosen, false);
    });
  }

  // A table wider than the screen scrolls sideways in its box: the box is then a named region
  // the keyboard can focus (and scroll with the arrow keys); otherwise it is nothing at all.
  function setUpScrolling() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll(".scroll"));
    function label(box) {
      var heading = box.previousElementSibling;
      while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
      return (heading ? heading.textContent : "Table") + " (scrolls sideways)";
    }
    function mark() {
      boxes.forEach(function (box) {
        if (box.scrollWidth > box.clientWidth + 1) {
          box.tabIndex = 0;
          box.setAttribute("role", "region");
          box.setAttribute("aria-label", label(box));
        } else {
          ["tabindex", "role", "aria-label"].forEach(function (name) { box.removeAttribute(name); });
        }
      });
    }
    mark();
    window.addEventListener("resize", mark);
    document.addEventListener("toggle", mark, true);
  }

  // Served by `python -m PKG serve --http --ui DIR`, a tool's page can call the tool: the
  // server says so at ../playground.json (never asked from file://, where it cannot be).
  function setUpPlayground() {
    var section = document.getElementById("playground");
    if (!section || !/^https?:$/.test(location.protocol)) return;
    fetch("../playground.json").then(function (answer) {
      if (!answer.ok) return;
      return answer.json().then(function (found) {
        section.hidden = false;
        var form = document.getElementById("playground-form");
        var shown = document.getElementById("playground-result");
        form.addEventListener("submit", function (event) {
          event.preventDefault();
          var args;
          try {
            args = JSON.parse(document.getElementById("playground-arguments").value);
          } catch (error) {
            shown.textContent = "The arguments are not JSON: " + error.message;
            return;
          }
          shown.textContent = "Calling…";
          fetch(found.call, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ name: section.getAttribute("data-tool"), arguments: args })
          }).then(function (reply) { return reply.json(); }).then(function (result) {
            shown.textContent = JSON.stringify(result, null, 2);
          }, function (error) {
            shown.textContent = "The call did not reach the server: " + error.message;
          });
        });
      });
    }, function () {});
  }

  window.toolgenCatalog = { tokens: tokens };
  document.addEventListener("DOMContentLoaded", function () {
    setUpSearch();
    setUpTabs();
    setUpScrolling();
    setUpPlayground();
  });
})();
