// The --dump-all report's page script (nanopass/report.py): loads a stage's file when the stage
// is opened, draws its graphs in frames with pan and zoom, finds tasks and kernels by name, and
// reports in #render-status what is on screen. No library, nothing fetched from the network.
(function () {
  "use strict";
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.stage"));
  var byIndex = {};
  sections.forEach(function (s) { byIndex[s.getAttribute("data-stage")] = s; });
  var svgText = {};      // SVG file name -> its text, once its script has run
  var svgWaiting = {};   // SVG file name -> viewports waiting for it
  var requested = {};    // script file name -> true
  var status = document.getElementById("render-status");
  var views = [];        // {viewport, svg, view, base}

  function load(src, onerror) {
    if (requested[src]) return;
    requested[src] = true;
    var script = document.createElement("script");
    script.src = src;
    script.onerror = onerror;
    document.body.appendChild(script);
  }

  function openStage(section) {
    section.querySelector("details.body").open = true;
    fetchStage(section);  // now, not at the toggle event: a script added before the load event delays it
  }

  function fetchStage(section) {
    var content = section.querySelector("details.body .content");
    if (section.hasAttribute("data-state")) return;
    section.setAttribute("data-state", "loading");
    content.innerHTML = '<p class="note">loading…</p>';
    var src = section.getAttribute("data-src");
    load(src, function () {
      section.setAttribute("data-state", "failed");
      content.innerHTML = '<p class="failure">Could not load ' + src + ": is it next to this page?</p>";
      report();
    });
    report();
  }

  function fill(viewport, name) {
    viewport.innerHTML = svgText[name];
    var svg = viewport.querySelector("svg");
    if (svg) panZoom(viewport, svg);
    report();
  }

  function wantSvg(viewport) {
    var name = viewport.getAttribute("data-svg");
    if (svgText.hasOwnProperty(name)) { fill(viewport, name); return; }
    (svgWaiting[name] = svgWaiting[name] || []).push(viewport);
    load(name + ".js", function () {
      viewport.innerHTML = '<p class="failure">Could not load ' + name + ".js</p>";
      report();
    });
  }

  window.nanopassReport = {
    stage: function (index, json) {
      var section = byIndex[String(index)];
      if (!section) return;
      var data = JSON.parse(json);
      section.querySelector("details.body .content").innerHTML = data.html;
      section.setAttribute("data-state", "loaded");
      section.querySelectorAll(".viewport[data-svg]").forEach(wantSvg);
      search();
      report();
    },
    svg: function (name, text) {
      svgText[name] = text;
      (svgWaiting[name] || []).forEach(function (viewport) { fill(viewport, name); });
      delete svgWaiting[name];
      search();
    }
  };

  // -- pan and zoom: the SVG's viewBox is the view; 1 unit = 4/3 px at 1:1 (dot draws in points)
  function panZoom(viewport, svg) {
    var vb = svg.viewBox.baseVal;
    if (!vb || !vb.width) return;
    var base = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
    var width = Math.max(200, viewport.clientWidth || 800);
    var scale = Math.min(1, width / (base.w * 4 / 3));
    var height = Math.max(80, Math.min(base.h * 4 / 3 * scale, window.innerHeight * 0.8));
    viewport.style.height = Math.round(height) + "px";
    var state = { viewport: viewport, svg: svg, base: base, view: null };
    function show(view) {
      state.view = view;
      svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].join(" "));
    }
    function atScale(k) {  // the view at k px per point, its top centred on the graph's
      var w = viewport.clientWidth / (k * 4 / 3), h = viewport.clientHeight / (k * 4 / 3);
      return { x: base.x + (base.w - w) / 2, y: base.y, w: w, h: h };
    }
    function fit() {
      var k = Math.min(viewport.clientWidth / (base.w * 4 / 3), viewport.clientHeight / (base.h * 4 / 3));
      show(atScale(k));
    }
    function zoomAt(factor, px, py) {
      var v = state.view, r = viewport.getBoundingClientRect();
      var fx = (px - r.left) / r.width, fy = (py - r.top) / r.height;
      var sx = v.x + fx * v.w, sy = v.y + fy * v.h, w = v.w / factor, h = v.h / factor;
      show({ x: sx - fx * w, y: sy - fy * h, w: w, h: h });
    }
    show(atScale(scale));
    var bar = document.createElement("div");
    bar.className = "zoom";
    bar.innerHTML = '<button type="button" data-z="out" title="zoom out">−</button> '
      + '<button type="button" data-z="in" title="zoom in">+</button> '
      + '<button type="button" data-z="fit" title="the whole graph">fit</button> '
      + '<button type="button" data-z="one" title="actual size">1:1</button> '
      + "drag to move; Ctrl + wheel to zoom";
    viewport.parentNode.insertBefore(bar, viewport);
    bar.addEventListener("click", function (e) {
      var z = e.target.getAttribute && e.target.getAttribute("data-z");
      var r = viewport.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      if (z === "in") zoomAt(1.25, cx, cy);
      else if (z === "out") zoomAt(0.8, cx, cy);
      else if (z === "fit") fit();
      else if (z === "one") show(atScale(1));
    });
    viewport.addEventListener("wheel", function (e) {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      zoomAt(Math.exp(-e.deltaY * 0.002), e.clientX, e.clientY);
    }, { passive: false });
    var drag = null;
    viewport.addEventListener("pointerdown", function (e) {
      drag = { x: e.clientX, y: e.clientY, view: state.view };
      viewport.setPointerCapture(e.pointerId);
      viewport.classList.add("dragging");
    });
    viewport.addEventListener("pointermove", function (e) {
      if (!drag) return;
      var k = drag.view.w / viewport.clientWidth;
      show({ x: drag.view.x - (e.clientX - drag.x) * k, y: drag.view.y - (e.clientY - drag.y) * k, w: drag.view.w, h: drag.view.h });
    });
    function drop() { drag = null; viewport.classList.remove("dragging"); }
    viewport.addEventListener("pointerup", drop);
    viewport.addEventListener("pointercancel", drop);
    state.centre = function (element) {
      var box = element.getBBox(), m = svg.getScreenCTM().inverse().multiply(element.getScreenCTM());
      var cx = m.a * (box.x + box.width / 2) + m.c * (box.y + box.height / 2) + m.e;
      var cy = m.b * (box.x + box.width / 2) + m.d * (box.y + box.height / 2) + m.f;
      var v = state.view.w > viewport.clientWidth * 3 / 4 ? atScale(1) : state.view;  // readable
      show({ x: cx - v.w / 2, y: cy - v.h / 2, w: v.w, h: v.h });
    };
    views.push(state);
  }

  // -- finding tasks and kernels in the graphs on screen
  var find = document.getElementById("find"), found = document.getElementById("found");
  var hits = [], current = -1;
  function search() {
    var query = (find.value || "").trim().toLowerCase();
    hits.forEach(function (h) { h.node.classList.remove("hit", "current"); });
    hits = [];
    current = -1;
    if (!query) { found.textContent = ""; return; }
    var graphs = 0;
    views.forEach(function (state) {
      var any = false;
      state.svg.querySelectorAll("g.node").forEach(function (node) {
        var text = node.textContent;
        node.querySelectorAll("a").forEach(function (a) {
          text += " " + (a.getAttribute("xlink:title") || a.getAttribute("title") || "");
        });
        if (text.toLowerCase().indexOf(query) >= 0) {
          node.classList.add("hit");
          hits.push({ node: node, state: state });
          any = true;
        }
      });
      if (any) graphs += 1;
    });
    found.textContent = hits.length ? hits.length + " in " + graphs + " graph" + (graphs === 1 ? "" : "s") + " (Enter: next)"
      : "none in the stages open";
  }
  find.addEventListener("input", search);
  find.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || !hits.length) return;
    if (current >= 0) hits[current].node.classList.remove("current");
    current = (current + 1) % hits.length;
    var hit = hits[current];
    hit.node.classList.add("current");
    hit.state.viewport.scrollIntoView({ block: "center" });
    hit.state.centre(hit.node);
  });

  // -- what is on screen
  function report() {
    var opened = 0, shown = 0;
    sections.forEach(function (section) {
      if (!section.hasAttribute("data-state")) return;
      opened += 1;
      var ports = section.querySelectorAll(".viewport[data-svg]");
      var drawn = Array.prototype.every.call(ports, function (p) {
        var svg = p.querySelector("svg");
        return svg && svg.getBoundingClientRect().height > 0;
      });
      var ok = section.getAttribute("data-state") === "loaded" && drawn
        && section.querySelector("figure.graph") && section.querySelector("pre.ir");
      if (ok) { shown += 1; section.setAttribute("data-rendered", "yes"); }
    });
    var done = shown === opened && sections.every(function (s) { return s.getAttribute("data-state") !== "loading"; });
    status.textContent = "opened " + opened + " of " + sections.length + " stages; " + shown + " rendered";
    status.setAttribute("data-opened", String(opened));
    status.setAttribute("data-ok", done ? "yes" : "no");
    if (done) {
      var ms = Math.round(performance.now());
      status.setAttribute("data-ms", String(ms));
      status.textContent += " in " + ms + " ms";
      console.log("nanopass-report: " + status.textContent);
    }
  }

  sections.forEach(function (section) {
    section.querySelector("details.body").addEventListener("toggle", function (e) {
      if (e.target.open) fetchStage(section);
    });
  });
  function fromAddress() {
    var parts = decodeURIComponent(location.hash.slice(1)).split(";find=");
    var hash = parts[0];
    if (parts.length > 1) find.value = parts[1];  // #stage-07;find=k_mm opens a stage and finds
    if (hash === "all") sections.forEach(openStage);
    else if (byIndex[String(parseInt(hash.replace("stage-", ""), 10))] && hash.indexOf("stage-") === 0) {
      var section = byIndex[String(parseInt(hash.slice(6), 10))];
      openStage(section);
      section.scrollIntoView();
    }
  }
  window.addEventListener("hashchange", fromAddress);
  document.getElementById("expand").addEventListener("click", function () { sections.forEach(openStage); });
  document.getElementById("collapse").addEventListener("click", function () {
    sections.forEach(function (s) { s.querySelector("details.body").open = false; });
  });
  fromAddress();
  report();
})();
