"""The rule engines' refusals in the reader's language (issue 15).

Rule code is plain Python: a :class:`~scoring.rules.errors.RuleError` carries a stable ``code``, its English
template (marked with ``gettext_noop`` so that ``makemessages`` collects it) and the parameters that fill it. This is
the one place where such an error becomes text for a page: the template is looked up in the gettext
catalogue of the active language and filled in. Anything the catalogue lacks reads in English, as before.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring.rules.errors import RuleError, cut


def rule_message(error: RuleError) -> str:
    """``error`` as a sentence fragment in the active language (an error quoted inside another one, such
    as the problem with one declared set, is translated too)."""
    params: dict[str, Any] = {
        name: rule_message(value) if isinstance(value, RuleError) else value
        for name, value in error.params.items()
    }
    if not error.template:
        return error.message
    template = gettext(error.template)
    try:
        return cut(template % params if params else template)
    except (KeyError, ValueError, TypeError):  # a translation that does not fit: the English is right
        return error.message


def rule_sentence(error: RuleError) -> str:
    """``error`` as a sentence for a page: capitalised, with a full stop (a Chinese one in Chinese)."""
    message = rule_message(error)
    if not message:
        return message
    message = message[0].upper() + message[1:]
    stop = gettext("%(sentence)s.") % {"sentence": ""}  # "。" in Chinese
    return message if message.endswith((".", "。", "！", "？")) else message + stop
