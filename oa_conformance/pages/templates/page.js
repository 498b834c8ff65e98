"use strict";
/* Shared by every page: mark the document as scripted (the filters are shown only then). */
document.documentElement.classList.add("js");
