/// The static parts of a ``SessionPage``: its markup skeleton, styles and script (no data in them).
enum SessionPageAssets {
  /// The panes, titled as the debugger titles them; the script fills them.
  static let body = """
    <header><b id="app"></b> <span id="label" class="dim"></span> <span id="count" class="dim"></span> \
    <span id="plan"></span></header>
    <ul id="notes"></ul>
    <main>
    <section id="events"><h2>Events <span id="position" class="dim"></span></h2>
    <div class="filterbar"><label for="filter">/</label><input id="filter" autocomplete="off" spellcheck="false" \
    placeholder="filter: kind:action name:play screen:favorites provider:firebase has:violations">\
    <span id="filter-state" class="dim"></span></div>
    <div id="list" tabindex="0"><div id="spacer"></div></div></section>
    <section id="side">
    <div class="top"><div id="screens-pane"><h2>Screens</h2><div id="screens"></div></div>
    <div id="session-pane"><h2>Session</h2><div id="session"></div></div></div>
    <div id="providers-pane"><h2>Providers <span id="selected-title"></span></h2><div id="issues"></div>
    <div id="providers"></div><div id="comparisons"></div><div id="record"></div></div>
    </section>
    </main>
    <footer>j/k ↑/↓ move · g/G first/last · PgUp/PgDn page · / filter (esc leaves it) · [ ] previous/next \
    violation · <span id="notice"></span></footer>
    <pre id="selftest-result" hidden></pre>
    """

  static let style = """
    *{box-sizing:border-box}html,body{height:100%;margin:0}
    body{display:flex;flex-direction:column;font:13px/1.4 ui-monospace,Menlo,Consolas,monospace;\
    background:#111;color:#ddd}
    header,footer{padding:4px 8px;background:#222;white-space:nowrap;overflow:hidden}
    h2{font-size:13px;margin:0;padding:2px 6px;background:#1b2a3a;color:#9cf}
    main{flex:1;display:flex;min-height:0}
    #events{flex:0 0 42%;display:flex;flex-direction:column;border-right:1px solid #333;min-width:0}
    #side{flex:1;display:flex;flex-direction:column;min-width:0;overflow:auto}
    .top{display:flex;border-bottom:1px solid #333}.top>div{flex:1;min-width:0}
    #screens,#session{padding:4px 8px;min-height:4em}
    .filterbar{display:flex;gap:4px;padding:2px 6px}.filterbar input{flex:1;background:#000;color:#ddd;\
    border:1px solid #444;font:inherit}.filterbar.invalid input{border-color:#e55}
    #list{flex:1;overflow-y:auto;position:relative;outline:none}
    #spacer{position:relative}
    .row{position:absolute;left:0;right:0;height:20px;white-space:nowrap;overflow:hidden;padding:0 6px;\
    cursor:pointer;display:flex;gap:6px}
    .row .name{flex:1;overflow:hidden;text-overflow:ellipsis}.row .screen-kind{font-weight:bold}
    .row.selected{background:#ddd;color:#111}.row.selected .dim{color:#333}
    .dim{color:#888}.bad{color:#f66}.warn{color:#fc5}.ok{color:#6d6}.glyph{color:#5cd}.key{color:#5cd}
    #notes{margin:0;padding:0 8px 0 24px;color:#fc5}#notes:empty{display:none}
    #providers{display:flex;gap:8px;padding:6px;overflow-x:auto}
    .provider{flex:1 0 16em;border:1px solid #333;padding:4px 6px;min-width:16em}
    .provider h3{margin:0 0 4px;font-size:13px}
    .call{margin:2px 0 6px}.param{padding-left:1em;overflow-wrap:anywhere}
    #issues,#comparisons,#record{padding:4px 8px}
    table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #333;padding:1px 6px;text-align:left;\
    vertical-align:top;overflow-wrap:anywhere}
    tr.differs td{color:#f66}
    footer{font-size:12px;color:#999}
    """

  // The script reads the data once, keeps the filter's matches as positions, and draws only the
  // rows in view; panes are rebuilt for the selected record with textContent only.
  static let script = #"""
    (function () {
    "use strict";
    var D = JSON.parse(document.getElementById("tagscope-data").textContent);
    var S = D.s, R = D.r, W = D.w, N = Math.floor(R.length / W), P = D.providers;
    var ROW = 20;
    var GLYPH = {screen: "▣", userAction: "◆", event: "◎", state: "◇", timedStart: "◔", timedStop: "◕",
      sessionStart: "§", sessionUpdate: "§", sessionEnd: "§", identify: "@", reset: "↺", consent: "⚑"};
    var MARK = {"●": "ok", "·": "dim", "⊘": "warn", "▲": "bad"};
    var STATUS = {sent: "●", dropped: "·", blocked: "⊘", failed: "▲"};
    function el(id) { return document.getElementById(id); }
    function node(tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined && text !== null) e.textContent = String(text);
      return e;
    }
    function add(parent, tag, cls, text) { var e = node(tag, cls, text); parent.appendChild(e); return e; }
    function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
    function f(i, k) { return R[i * W + k]; }
    function clock(ms) { return new Date(D.t0 + ms).toISOString().slice(11, 23); }
    function grouped(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

    var list = el("list"), spacer = el("spacer"), input = el("filter");
    var visible = null, cursor = 0, pool = [], lower = [];
    function low(s) { var v = lower[s]; if (v === undefined) { v = S[s].toLowerCase(); lower[s] = v; } return v; }
    function all() { var a = new Int32Array(N); for (var i = 0; i < N; i++) a[i] = i; return a; }
    function violations(i) { return f(i, 4) >> 1; }

    // The filter: words, each a term (kind: name: screen: provider: status: has:violations|issues) or
    // text in the name or kind; -word excludes.
    var KEYS = {kind: 1, name: 1, screen: 1, provider: 1, status: 1, has: 1};
    function parse(text) {
      var terms = [], words = text.trim().split(/\s+/).filter(Boolean);
      for (var w = 0; w < words.length; w++) {
        var word = words[w], neg = word.length > 1 && word[0] === "-";
        if (neg) word = word.slice(1);
        var m = /^([a-z]+):(.*)$/.exec(word);
        if (m) {
          if (!KEYS[m[1]]) return {error: "unknown term " + m[1] + ":"};
          var value = m[2].toLowerCase();
          if (!value) return {error: m[1] + ": needs a value"};
          if (m[1] === "has" && value !== "violations" && value !== "issues")
            return {error: "has: takes violations or issues"};
          if (m[1] === "provider" && P.map(function (p) { return p.toLowerCase(); }).indexOf(value) < 0)
            return {error: "no provider " + value};
          if (m[1] === "status" && !STATUS[value]) return {error: "status: sent, dropped, blocked or failed"};
          terms.push({key: m[1], value: value, neg: neg});
        } else {
          terms.push({key: "text", value: word.toLowerCase(), neg: neg});
        }
      }
      return {terms: terms};
    }
    function screenOf(i) {
      var s = f(i, 6);
      if (s < 0) return "";
      var h = D.st[s][0];
      return h.length ? h[h.length - 1].toLowerCase() : "";
    }
    function test(t, i) {
      switch (t.key) {
        case "kind": return low(f(i, 2)).indexOf(t.value) >= 0;
        case "name": return low(f(i, 3)).indexOf(t.value) >= 0;
        case "screen": return screenOf(i).indexOf(t.value) >= 0;
        case "provider":
          var p = P.map(function (x) { return x.toLowerCase(); }).indexOf(t.value);
          return Array.from(S[f(i, 5)])[p] !== " ";
        case "status": return S[f(i, 5)].indexOf(STATUS[t.value]) >= 0;
        case "has": return t.value === "violations" ? violations(i) > 0 : (f(i, 4) & 1) === 1;
        default: return low(f(i, 3)).indexOf(t.value) >= 0 || low(f(i, 2)).indexOf(t.value) >= 0;
      }
    }
    function applyFilter() {
      var text = input.value, parsed = parse(text), bar = input.parentNode, state = el("filter-state");
      bar.classList.toggle("invalid", !!parsed.error);
      if (parsed.error) { state.textContent = "invalid: " + parsed.error; return; }
      var keep = visible ? visible[cursor] : 0;
      if (!parsed.terms.length) {
        visible = all();
        state.textContent = "";
      } else {
        var out = [];
        for (var i = 0; i < N; i++) {
          var ok = true;
          for (var k = 0; k < parsed.terms.length && ok; k++) {
            ok = test(parsed.terms[k], i) !== parsed.terms[k].neg;
          }
          if (ok) out.push(i);
        }
        visible = Int32Array.from(out);
        state.textContent = grouped(out.length) + " match";
      }
      // The selection stays on the same record, or the first match after it.
      var at = 0;
      while (at < visible.length - 1 && visible[at] < keep) at++;
      select(at);
    }

    function row() {
      var r = node("div", "row");
      r.num = add(r, "span", "dim"); r.time = add(r, "span", "dim"); r.glyph = add(r, "span", "glyph");
      r.name = add(r, "span", "name"); r.marks = add(r, "span", "bad"); r.issue = add(r, "span", "warn");
      r.status = add(r, "span", "status");
      r.addEventListener("click", function () { select(r.position); list.focus(); });
      spacer.appendChild(r);
      return r;
    }
    function drawList() {
      spacer.style.height = visible.length * ROW + "px";
      var top = Math.floor(list.scrollTop / ROW), count = Math.ceil((list.clientHeight || 600) / ROW) + 1;
      while (pool.length < count) pool.push(row());
      for (var j = 0; j < pool.length; j++) {
        var r = pool[j], position = top + j;
        if (j >= count || position >= visible.length) { r.style.display = "none"; continue; }
        var i = visible[position], v = violations(i);
        r.style.display = "";
        r.style.top = position * ROW + "px";
        r.position = position;
        r.className = position === cursor ? "row selected" : "row";
        r.num.textContent = f(i, 0);
        r.time.textContent = clock(f(i, 1));
        r.glyph.textContent = GLYPH[S[f(i, 2)]] || "·";
        r.name.textContent = S[f(i, 3)];
        r.name.className = S[f(i, 2)] === "screen" ? "name screen-kind" : "name";
        r.marks.textContent = v === 0 ? "" : v === 1 ? "✗" : "✗" + v;
        r.issue.textContent = f(i, 4) & 1 ? "!" : "";
        clear(r.status);
        Array.from(S[f(i, 5)]).forEach(function (c) { add(r.status, "span", MARK[c] || "", c); });
      }
    }
    function select(position) {
      if (!visible.length) { cursor = 0; drawList(); drawPanes(-1); return; }
      cursor = Math.max(0, Math.min(visible.length - 1, position));
      var y = cursor * ROW, h = list.clientHeight || 600;
      if (y < list.scrollTop) list.scrollTop = y;
      else if (y + ROW > list.scrollTop + h) list.scrollTop = y + ROW - h;
      drawList();
      drawPanes(visible[cursor]);
      el("position").textContent = grouped(cursor + 1) + "/" + grouped(visible.length);
    }

    function pairs(parent, kv, cls) {
      for (var k = 0; k + 1 < kv.length; k += 2) {
        var line = add(parent, "div", cls || "param");
        add(line, "span", "key", kv[k]); add(line, "span", "dim", ": "); add(line, "span", "", kv[k + 1]);
      }
    }
    function drawPanes(i) {
      var screens = clear(el("screens")), session = clear(el("session")), providers = clear(el("providers"));
      var issues = clear(el("issues")), comparisons = clear(el("comparisons")), record = clear(el("record"));
      var title = clear(el("selected-title"));
      if (i < 0) { add(screens, "div", "dim", N ? "no record matches the filter" : "no records"); return; }
      add(title, "span", "dim", "· "); add(title, "b", "", "#" + f(i, 0) + " " + S[f(i, 3)]);
      var st = f(i, 6) >= 0 ? D.st[f(i, 6)] : null, d = f(i, 7) >= 0 ? D.d[f(i, 7)] : null;
      if (!st || !d) { add(issues, "div", "bad", "this record could not be read (see the notes above)"); return; }
      var history = st[0];
      for (var h = history.length - 1; h >= 0; h--) {
        var line = add(screens, "div", h === history.length - 1 ? "" : "dim");
        if (h === history.length - 1) { add(line, "span", "ok", "▶ "); add(line, "b", "", history[h]); }
        else line.textContent = "  " + history[h];
        if (h === history.length - 1 && st[1]) add(screens, "div", "warn", "  (inferred from calls)");
      }
      if (!history.length) add(screens, "div", "dim", "no screen yet");
      var s = st[2];
      if (s) {
        var first = add(session, "div", "");
        add(first, "b", s[0] === "authenticated" ? "ok" : "warn", s[0]);
        if (s[1] !== null) { add(first, "span", "dim", " · user "); add(first, "b", "", s[1]); }
        else if (s[2] !== null) { add(first, "span", "dim", " · anonymous "); add(first, "span", "", s[2]); }
        if (s[3]) {
          var id = add(session, "div", ""); add(id, "span", "dim", "session "); add(id, "span", "", s[3]);
          if (s[5]) add(id, "span", "dim", " · inferred from the SDK's id");
        }
        pairs(session, s[4], "prop");
      } else add(session, "div", "dim", "no session");
      if (st[3].length) {
        var consent = add(session, "div", "dim", "consent:");
        st[3].forEach(function (c) {
          add(consent, "span", "", " " + c[0].replace(/^[^:]*:/, ""));
          add(consent, "span", c[1] ? "ok" : "bad", c[1] ? " ✓" : " ✗");
        });
      }
      if (st[4].length) { var timed = add(session, "div", "dim", "timed: "); add(timed, "span", "warn", st[4].join(", ")); }
      if (st[5] !== null) { var source = add(session, "div", "dim", "source "); add(source, "span", "", st[5]); }

      d[4].forEach(function (issue) { add(issues, "div", issue[0] === "plan" ? "bad" : "warn", (issue[0] === "plan" ? "✗ " : "! ") + issue[1]); });
      d[2].forEach(function (finding) { if (finding[0] === null) add(issues, "div", "bad", "✗ " + finding[1] + ": " + finding[2]); });
      if (!d[1].length) add(providers, "div", "dim", "no provider outputs");
      d[1].forEach(function (o) {
        var column = add(providers, "div", "provider");
        column.setAttribute("data-provider", o[0]);
        var head = add(column, "h3", "");
        add(head, "span", MARK[STATUS[o[1]]] || "bad", (STATUS[o[1]] || "▲") + " ");
        add(head, "span", "", o[0]);
        add(column, "div", "dim", o[1] + (o[2] !== null ? " (" + o[2] + ")" : ""));
        o[3].forEach(function (call, n) {
          var c = add(column, "div", "call");
          var name = add(c, "div", ""); add(name, "span", "key", call[0]);
          if (call[1] !== null) { add(name, "span", "", " "); add(name, "b", "", call[1]); }
          pairs(c, call[2]);
          o[4].forEach(function (v) { if (v[3] === n) add(c, "div", "bad", "✗ " + v[0] + ": " + v[1] + " (" + v[2] + ")"); });
        });
        o[4].forEach(function (v) { if (v[3] < 0 || v[3] >= o[3].length) add(column, "div", "bad", "✗ " + v[0] + ": " + v[1] + " (" + v[2] + ")"); });
        d[2].forEach(function (finding) {
          if (finding[0] === o[0]) add(column, "div", "bad", "✗ " + finding[1] + ": " + finding[2]);
        });
      });
      if (d[3].length) add(comparisons, "h2", "", "Expected vs got");
      d[3].forEach(function (c) {
        var box = add(comparisons, "div", "comparison");
        add(box, "div", "bad", "✗ " + c[0] + ": " + c[1]);
        add(box, "div", "dim", c[2] + (c[3] !== null ? " · plan line " + c[3] : ""));
        var table = add(box, "table", ""), headRow = add(table, "tr", "");
        ["field", c[6], "got (record)"].forEach(function (t) { add(headRow, "th", "", t); });
        c[4].forEach(function (r) {
          var tr = add(table, "tr", r[3] ? "differs" : "");
          add(tr, "td", "", r[0]); add(tr, "td", "", r[1]); add(tr, "td", "", r[2]);
        });
        c[5].forEach(function (o) { add(box, "div", "bad", "✗ " + o[0] + ": " + o[1]); });
      });
      add(record, "h2", "", "Record");
      var meta = add(record, "div", "dim", clock(f(i, 1)) + " · " + S[f(i, 2)] + (d[5] !== null ? " · " + d[5] : ""));
      if (d[6] !== null) add(meta, "span", "", " · " + d[6]);
      pairs(record, d[0], "prop");
    }

    function nextViolation(step) {
      for (var p = cursor + step; p >= 0 && p < visible.length; p += step) {
        if (violations(visible[p]) > 0) { el("notice").textContent = ""; select(p); return; }
      }
      el("notice").textContent = step > 0 ? "no violation after this record" : "no violation before this record";
    }
    function page() { return Math.max(1, Math.floor((list.clientHeight || 600) / ROW) - 1); }
    function key(e) {
      if (e.target === input) {
        if (e.key === "Escape" || e.key === "Enter") { e.preventDefault(); input.blur(); list.focus(); }
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      switch (e.key) {
        case "j": case "ArrowDown": select(cursor + 1); break;
        case "k": case "ArrowUp": select(cursor - 1); break;
        case "g": case "Home": select(0); break;
        case "G": case "End": select(visible.length - 1); break;
        case "PageDown": select(cursor + page()); break;
        case "PageUp": select(cursor - page()); break;
        case "]": nextViolation(1); break;
        case "[": nextViolation(-1); break;
        case "/": input.focus(); input.select(); break;
        case "Escape": if (input.value) { input.value = ""; applyFilter(); } break;
        default: return;
      }
      e.preventDefault();
    }
    document.addEventListener("keydown", key);
    input.addEventListener("input", applyFilter);
    list.addEventListener("scroll", drawList);
    window.addEventListener("resize", drawList);

    document.title = "tagscope · " + D.app + " · " + D.label;
    el("app").textContent = D.app;
    el("label").textContent = D.label;
    el("count").textContent = "· " + grouped(N) + (N === 1 ? " record" : " records");
    if (D.plan !== null) el("plan").textContent = "· " + D.plan;
    D.notes.forEach(function (n) { add(el("notes"), "li", "", n); });
    visible = all();
    select(0);
    list.focus();
    document.documentElement.setAttribute("data-first-render-ms", String(Math.round(performance.now())));

    // A self-test for headless browsers: #selftest=KEYS (space-separated key names; "type:TEXT" types
    // TEXT into the filter, + for a space) presses the keys and writes what each left on screen into #selftest-result.
    var hash = decodeURIComponent(location.hash || "");
    if (hash.indexOf("#selftest=") === 0) {
      var steps = [];
      hash.slice(10).split(" ").filter(Boolean).forEach(function (k) {
        if (k.indexOf("type:") === 0) {
          input.value += k.slice(5).replace(/\+/g, " ");
          input.dispatchEvent(new Event("input"));
        } else {
          var target = document.activeElement || document.body;
          target.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true, cancelable: true}));
        }
        var i = visible.length ? visible[cursor] : -1;
        steps.push({key: k, selected: i < 0 ? null : f(i, 0), name: i < 0 ? null : S[f(i, 3)],
          matches: visible.length, rows: spacer.querySelectorAll(".row:not([style*='none'])").length,
          filter: el("filter-state").textContent, focus: document.activeElement === input ? "filter" : "list",
          screens: el("screens").textContent, session: el("session").textContent,
          providers: Array.from(el("providers").children).map(function (c) { return c.textContent; }),
          columns: Array.from(el("providers").children).map(function (c) { return [c.offsetLeft, c.offsetTop]; }),
          comparisons: el("comparisons").textContent, notice: el("notice").textContent});
      });
      var out = el("selftest-result");
      out.textContent = JSON.stringify(steps);
      out.hidden = false;
    }
    })();
    """#
}
