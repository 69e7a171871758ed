// Draw the report's charts with Chart.js, from the figures the page carries.
(function () {
  "use strict";
  var charts = JSON.parse(document.getElementById("charts-data").textContent);
  var palette = JSON.parse(document.getElementById("palette").textContent);
  var plain = ["#8a2d1c", "#1f77b4"];
  window.courtierCharts = {};
  if (typeof Chart !== "undefined") {
    Chart.defaults.font.size = Math.round(parseFloat(getComputedStyle(document.documentElement).fontSize) * 0.8);
  }
  charts.forEach(function (spec) {
    var canvas = document.getElementById("chart-" + spec.id);
    if (!canvas || typeof Chart === "undefined") return;
    var datasets = spec.datasets.map(function (d, i) {
      var colour = d.seat === null || d.seat === undefined ? plain[i % plain.length] : palette[d.seat];
      return { label: d.label, data: d.data, borderColor: colour, backgroundColor: colour,
               tension: 0, pointRadius: spec.labels.length > 40 ? 0 : 3, spanGaps: true };
    });
    window.courtierCharts[spec.id] = new Chart(canvas, {
      type: spec.kind,
      data: { labels: spec.labels, datasets: datasets },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false,
        scales: { x: { title: { display: true, text: spec.axis } }, y: { beginAtZero: true } },
        plugins: { legend: { position: "bottom" } }
      }
    });
  });
})();
