// Loaded before require.js on every page of the book (see nb_ipywidgets_js in
// _config.yml). It tells require.js where the widget modules are: in this same
// folder, so the book works from any address (root, sub-path or file://) and
// never asks a CDN.
(function () {
  var here = document.currentScript.src.replace(/[^/]*$/, "");
  window.require = {
    paths: {
      "jupyter-threejs": here + "jupyter-threejs",
      // The widget manager loads its fonts relative to this module's address.
      "@jupyter-widgets/html-manager": here + "html-manager",
    },
  };
})();
