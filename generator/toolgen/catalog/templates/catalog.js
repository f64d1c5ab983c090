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
  // server says so at ../playground.json (never asked from file://, where it cannot be). Its
  // answer is JSON lines, read as they arrive: a streaming tool's events, then the result.
  function setUpPlayground() {
    var section = document.getElementById("playground");
    if (!section || !/^https?:$/.test(location.protocol)) return;
    fetch("../playground.json").then(function (answer) {
      if (!answer.ok) return;
      return answer.json().then(function (found) { startPlayground(section, found); });
    }, function () {});
  }

  function byId(id) { return document.getElementById(id); }

  function element(tag, text, className) {
    var made = document.createElement(tag);
    if (text !== undefined) made.textContent = text;
    if (className) made.className = className;
    return made;
  }

  // A content block as the model would see it: an image, audio, text, or what it is.
  function block(item, n) {
    var kind = item.type;
    if ((kind === "image" || kind === "audio") && item.data) {
      var media = document.createElement(kind === "image" ? "img" : "audio");
      media.src = "data:" + item.mime_type + ";base64," + item.data;
      if (kind === "image") media.alt = "Image " + n + " the tool returned (" + item.mime_type + ")";
      else media.controls = true;
      return media;
    }
    if (kind === "text") return element("p", item.text, "text");
    if (kind === "progress") {
      var of = item.total !== undefined ? " of " + item.total : "";
      return element("span", "Progress: " + item.done + of + (item.message ? ": " + item.message : ""));
    }
    if (kind === "chunk") return element("span", item.text, "text");
    if (kind === "partial") return element("code", JSON.stringify(item.data));
    var size = item.data ? " (" + Math.floor(item.data.length * 3 / 4) + " bytes)" : "";
    return element("span", "[" + kind + (item.mime_type ? ": " + item.mime_type : "") + size + "]");
  }

  // The result's JSON without the bytes of its blocks, which are shown above it instead.
  function withoutBytes(result) {
    var copy = {};
    Object.keys(result).forEach(function (key) {
      if (key === "text" || key === "suspended" || key === "warnings") return;
      copy[key] = key !== "content" ? result[key] : result[key].map(function (item) {
        if (!item.data) return item;
        var short = {};
        Object.keys(item).forEach(function (k) { short[k] = k === "data" ? "(" + item.data.length + " base64 characters)" : item[k]; });
        return short;
      });
    });
    return copy;
  }

  // The form's fields and the arguments' JSON are one: a field sets (or, emptied, removes)
  // its key; JSON typed by hand sets the fields. JSON that does not parse is left as it is.
  function setUpFields(text) {
    var inputs = Array.prototype.slice.call(document.querySelectorAll("[data-param]"));
    function parsed() {
      try {
        var value = JSON.parse(text.value || "{}");
        return value && typeof value === "object" && !Array.isArray(value) ? value : null;
      } catch (error) {
        return null;
      }
    }
    function fromText() {
      var args = parsed();
      if (!args) return;
      inputs.forEach(function (input) {
        var value = args[input.getAttribute("data-param")];
        var kind = input.getAttribute("data-kind");
        input.value = value === undefined ? "" : kind === "json" ? JSON.stringify(value) : String(value);
      });
    }
    function toText(input) {
      var args = parsed();
      if (!args) return;
      var name = input.getAttribute("data-param");
      var kind = input.getAttribute("data-kind");
      var value = input.value;
      if (value === "") delete args[name];
      else if (kind === "json") args[name] = JSON.parse(value);
      else if (kind === "number") args[name] = isFinite(Number(value)) ? Number(value) : value;
      else args[name] = value;
      text.value = JSON.stringify(args, null, 2);
    }
    inputs.forEach(function (input) {
      input.addEventListener(input.tagName === "SELECT" ? "change" : "input", function () { toText(input); });
    });
    text.addEventListener("input", fromText);
    fromText();
  }

  function startPlayground(section, found) {
    section.hidden = false;
    var form = byId("playground-form");
    var events = byId("playground-events");
    var content = byId("playground-content");
    var prompt = byId("playground-prompt");
    var decide = byId("playground-decide");
    var answerForm = byId("playground-answer-form");
    var waiting = null;

    function clear(status) {
      byId("playground-output").hidden = false;
      byId("playground-status").textContent = status;
      [events, content].forEach(function (list) { list.textContent = ""; list.hidden = true; });
      byId("playground-events-heading").hidden = true;
      byId("playground-content-heading").hidden = true;
      byId("playground-text").textContent = "";
      byId("playground-result").textContent = "";
      prompt.hidden = true;
      waiting = null;
    }

    function showEvent(item) {
      var li = element("li");
      li.appendChild(block(item, events.children.length + 1));
      events.appendChild(li);
      events.hidden = false;
      byId("playground-events-heading").hidden = false;
    }

    function showResult(result) {
      var ok = result.ok;
      var kind = ok ? "" : result.error.kind;
      byId("playground-status").textContent = ok ? "Done: the call succeeded." : "The call failed: " + kind + ".";
      byId("playground-text").textContent = result.text;
      (result.content || []).forEach(function (item, i) {
        var li = element("li");
        li.appendChild(block(item, i + 1));
        content.appendChild(li);
        content.hidden = false;
        byId("playground-content-heading").hidden = false;
      });
      byId("playground-result").textContent = JSON.stringify(withoutBytes(result), null, 2);
      if (result.suspended) ask(result.suspended);
    }

    function ask(suspended) {
      waiting = suspended.record;
      byId("playground-status").textContent = suspended.reason === "approval" ?
        "The call waits for your approval." : "The tool asks you a question.";
      byId("playground-prompt-text").textContent = suspended.prompt;
      decide.hidden = suspended.reason !== "approval";
      answerForm.hidden = suspended.reason === "approval";
      prompt.hidden = false;
      var first = suspended.reason === "approval" ? byId("playground-approve") : byId("playground-answer");
      first.focus();
    }

    // POST `body` to `url`; each JSON line of the answer is shown as it arrives.
    function send(url, body) {
      return fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body)
      }).then(function (reply) {
        if (!reply.ok || !reply.body) {
          return reply.json().then(function (refused) { showResult(Object.assign({ text: refused.error.message }, refused)); });
        }
        var reader = reply.body.getReader();
        var decoder = new TextDecoder();
        var rest = "";
        function lines(text) {
          rest += text;
          var parts = rest.split("\n");
          rest = parts.pop();
          parts.forEach(function (line) {
            if (!line) return;
            var item = JSON.parse(line);
            if (item.event) showEvent(item.event);
            else if (item.result) showResult(item.result);
          });
        }
        function pump() {
          return reader.read().then(function (step) {
            if (step.done) return lines(decoder.decode() + "\n");
            lines(decoder.decode(step.value, { stream: true }));
            return pump();
          });
        }
        return pump();
      }).catch(function (error) {
        byId("playground-status").textContent = "The call did not reach the server: " + error.message;
      });
    }

    setUpFields(byId("playground-arguments"));
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clear("Calling…");
      // The text goes as it is: the registry reads it as it reads a model's arguments.
      send(found.call, { name: section.getAttribute("data-tool"), arguments: byId("playground-arguments").value });
    });
    function resume(decision) {
      var record = waiting;
      if (!record) return;
      clear("Resuming…");
      decision.record = record;
      send(found.resume, decision);
    }
    byId("playground-approve").addEventListener("click", function () { resume({ approved: true }); });
    byId("playground-reject").addEventListener("click", function () {
      resume({ approved: false, reason: byId("playground-reason").value });
    });
    answerForm.addEventListener("submit", function (event) {
      event.preventDefault();
      resume({ answer: byId("playground-answer").value });
    });
  }

  window.toolgenCatalog = { tokens: tokens };
  document.addEventListener("DOMContentLoaded", function () {
    setUpSearch();
    setUpTabs();
    setUpScrolling();
    setUpPlayground();
  });
})();
