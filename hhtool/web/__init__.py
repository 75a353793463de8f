"""`hhtool serve`: the tracker in a browser. A Starlette app (:mod:`.app`) whose pages (:mod:`.pages`,
:mod:`.hand`) read the store through the service layer only, as the command line does, and render
server-side Jinja2 templates (``templates/``, every value escaped) with a little plain JavaScript and
one style sheet (``static/``), all served by the app itself: no network beyond it, no external font.
"""
