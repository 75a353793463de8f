"""`hhtool serve`: the tracker in a browser, on the same store (the app: :mod:`hhtool.web`)."""

from __future__ import annotations

import typer

from hhtool.cli.common import DB_OPTION, STRUCTURES_OPTION, database, err, info

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_command(
        port: int = typer.Option(8765, "--port", min=0, max=65535, help="TCP port to listen on (0: any free one)."),
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on. Anything but loopback lets "
                                 "anyone on the network read the store."),
        watch: bool = typer.Option(False, "--watch", help="Import new and growing files of the folders given as "
                                   "arguments (default: the config file's watch folders) while serving."),
        folders: list[str] | None = typer.Argument(None, metavar="[FOLDER]...", help="Folders --watch imports from."),
        open_browser: bool = typer.Option(False, "--open", help="Open the start page in the default browser."),
        interval: float = typer.Option(1.0, "--interval", min=0.05, help="Seconds between polls with --watch."),
        structures: str | None = STRUCTURES_OPTION,
        db: str | None = DB_OPTION,
    ) -> None:
        """Serve the tracker on http://127.0.0.1:8765: players, tables, hands, replayer, sessions, graph, audit, problems.

        It opens the store only while a page reads it: `hhtool import --watch` in another terminal
        writes between pages, and a page waits for the importer's batch. With --watch it imports
        itself (and then keeps the store open for writing until it stops), says each file it imported,
        and open pages show the new hands. Notes and tags written on its pages are the only other
        writes. Ctrl-C stops it.
        """
        from hhtool.reports.printable import printable
        from hhtool.service.config import desk_structures
        from hhtool.service.errors import UsageError
        from hhtool.service.serving import HeldStore, watched_folders

        if folders and not watch:
            raise UsageError("folders are for --watch: add --watch, or drop them")
        paths = watched_folders(folders, watch)
        desk = desk_structures(structures)  # (checked before the store is held: a bad file is a usage error)
        if host not in LOOPBACK:
            err.print(f"warning: listening on {host}: anyone who can reach this machine on port {port} can read "
                      "the store (every hand, note and name); serve on 127.0.0.1 unless that is what you want",
                      markup=False, highlight=False)
        held = HeldStore(database(db), paths, interval,
                         on_problem=lambda text: err.print(f"import: {printable(text)}", markup=False, highlight=False),
                         on_import=lambda imported: info(printable(imported.text()), stderr=True, markup=False,
                                                         highlight=False), desk=desk)
        try:
            _run(held, host, port, open_browser)
        finally:
            held.close()


def _run(held: object, host: str, port: int, open_browser: bool) -> None:
    import socket
    import threading
    import webbrowser

    import uvicorn

    from hhtool.web.app import allowed_hosts, create_app

    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        from hhtool.service.errors import UsageError

        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{bound}/"
    names = allowed_hosts(host, bound)
    if host in ("0.0.0.0", "::"):
        names |= allowed_hosts("127.0.0.1", bound) | {f"{socket.gethostname()}:{bound}"}
    app = create_app(held, names)  # type: ignore[arg-type]
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    info(f"serving {held.path} on {url} (Ctrl-C stops)", stderr=True, markup=False, highlight=False)  # type: ignore[attr-defined]
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.run(sockets=[listener])
