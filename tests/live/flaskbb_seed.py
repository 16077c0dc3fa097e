"""Seed a bootstrapped FlaskBB database: accounts and forum settings, in one process.

Runs under the FlaskBB venv's Python (>= 3.12), not forumbot's: `python flaskbb_seed.py CONFIG USERS_JSON`.
One process instead of one `flaskbb users new` per account: each CLI call re-creates the app (~7 s).
"""

import json
import sys

from flaskbb import create_app
from flaskbb.settings.models import Setting
from flaskbb.user.models import User
from flaskbb.utils.populate import create_user


def main(config: str, users_json: str) -> None:
    app = create_app(config)
    with app.app_context():
        for user in json.loads(users_json):
            if User.get_by(username=user["name"]) is None:
                create_user(user["name"], user["password"], user["email"], user["group"])
        # A GM bot sends a PM per player per phase: the default 50-message quota fills within a game
        # (ENGINES.md, "bot account prerequisites": a high enough PM quota).
        Setting.update("conversations", {"MESSAGE_QUOTA_ENABLED": False})
    print("seeded")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
