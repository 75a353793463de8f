from hhtool.cli import app

app(prog_name="hhtool")
