"""OpenVault's query construction (REFERENCE.md §3): entities, BM25 tokens, embedding query,
and how a workbench Query with a chat becomes them. Expected values are worked out by hand."""

from __future__ import annotations

import pytest

from workbench.core.data import Query
from workbench.core.models.hybrid import (
    Entities,
    QueryConfig,
    build_bm25_tokens,
    build_embedding_query,
    entity_repeats,
    extract_from_text,
    extract_query_context,
    parse_recent_messages,
)
from workbench.core.models.hybrid.chat import ChatConfig, plan_query
from workbench.core.models.hybrid.tokenizer import Tokenizer


def msgs(*texts: str) -> list[dict[str, str]]:
    return [{"mes": t} for t in texts]


def test_latin_names_use_ascii_word_boundaries() -> None:
    # McDonald: "Mc" has one lower-case letter, "Donald" follows a word character
    assert extract_from_text("McDonald came") == []
    # O'Brien: the apostrophe is a boundary; "O" alone is too short
    assert extract_from_text("O'Brien came") == ["Brien"]
    # a non-ASCII letter is a boundary too: Renée → Ren
    assert extract_from_text("Renée came") == ["Ren"]
    # AliceB: no boundary after the lower-case run
    assert extract_from_text("AliceB came") == []


def test_starters_and_any_other_capitalised_word() -> None:
    assert extract_from_text("Then They met. The Time came.") == ["They", "Time"]
    assert extract_from_text("Когда Она пришла, Ёжик спал. ЁЛКА") == ["Она", "Ёжик"]


def test_quoted_strings_of_3_to_50_units() -> None:
    text = 'He said "ok" and "yes" and « Мир » and "' + "x" * 51 + '" and "' + "y" * 50 + '"'
    # order: Latin names (none: "He" is too short), Cyrillic names (Мир), "…" quotes, «…»
    # quotes; "ok" (2 units) and the 51-unit quote are out; contents are trimmed
    assert extract_from_text(text) == ["Мир", "yes", "y" * 50, "Мир"]


def test_recency_weights_and_more_than_half_rule() -> None:
    # newest first; message i weighs 1 − 0.09·i per occurrence
    got = extract_query_context(msgs("Sarah met Bob. Sarah left.", "x", "Bob slept.", "y"))
    # Sarah: 1 + 1 (two occurrences in message 0); Bob: 1 + (1 − 0.18) = 1.82; both are in at
    # most 2 of 4 messages, and 2 is not more than half of 4: kept
    assert got.entities == ["Sarah", "Bob"]
    assert got.weights == {"Sarah": 2.0, "Bob": 1 + (1 - 2 * 0.09)}
    # Bob in 3 of 4 messages: 3 > 2 → dropped
    got = extract_query_context(msgs("Bob ran.", "Bob sat.", "Bob ate.", "Sarah came."))
    assert got.entities == ["Sarah"]


def test_active_characters_and_top_five() -> None:
    got = extract_query_context(msgs("Anna, Bert, Carl, Dora and Emil came.", "x", "y"),
                                ["Zoe", "Q"])
    # each name is in 1 of 3 messages (not more than half); Zoe: +3.0 though absent; "Q" is
    # shorter than 2 and ignored; 6 candidates → top 5, ties in first-seen order
    assert got.entities == ["Zoe", "Anna", "Bert", "Carl", "Dora"]
    assert got.weights["Zoe"] == 3.0


def test_message_text_from_mes_else_message() -> None:
    got = extract_query_context([{"message": "Sarah came."}, {"mes": "", "message": "Bob."}])
    assert got.weights == {"Sarah": 1.0, "Bob": 1 - 0.09}


@pytest.mark.parametrize(("weight", "boost", "repeats"), [
    (0.91, 5.0, 5),    # ceil(4.55)
    (2.0, 5.0, 10),
    (None, 5.0, 5),    # (weight || 1)
    (0.0, 5.0, 5),     # 0 is falsy: 1
    (2.0, 0.0, 0),     # entity boost 0 drops entities
])
def test_entity_repeats(weight: float | None, boost: float, repeats: int) -> None:
    assert entity_repeats(weight, boost) == repeats


def test_bm25_tokens_message_first_then_entities() -> None:
    ents = Entities(["Sasha", "Alice"], {"Sasha": 0.4, "Alice": 1.5})
    # Sasha: ceil(0.4·5) = 2 copies of "sasha"; Alice: ceil(7.5) = 8 of "alic"
    assert build_bm25_tokens("the dragon", ents) == ["dragon"] + ["sasha"] * 2 + ["alic"] * 8
    # entity boost 0: only the message's tokens
    assert build_bm25_tokens("the dragon", ents, QueryConfig(entity_boost_weight=0.0)) == \
        ["dragon"]


def test_embedding_query_joins_and_cuts() -> None:
    ents = Entities(["A1", "B2", "C3", "D4", "E5", "F6"], {})
    # messages joined by " ", then " ", then the first 5 entity names
    assert build_embedding_query(msgs("new", "old"), ents) == "new old A1 B2 C3 D4 E5"
    assert build_embedding_query(msgs("new", "old"), ents, QueryConfig(embedding_chars=6)) == \
        "new ol"
    # only the newest 5 messages
    assert build_embedding_query(msgs(*"abcdefg"), None) == "a b c d e "


def test_parse_recent_messages() -> None:
    assert parse_recent_messages("a\n \nb\nc", 2) == [{"mes": "c"}, {"mes": "b"}]


def _chat(*rows: tuple[str, bool, bool]) -> list[dict[str, object]]:
    return [{"name": "u" if user else "c", "is_user": user, "is_system": system, "mes": text}
            for text, user, system in rows]


def test_plan_of_a_query_with_a_chat() -> None:
    chat = _chat(("Hidden Bertram text", True, True),       # a system message: ignored
                 ("Where is Marta?", True, False),
                 ("Marta is at the Lighthouse.", False, False),
                 ("Ask Olga", True, False),
                 ("Go there\nnow", True, False),            # two lines
                 ("Fine then", True, False))
    q = Query("q", "Fine then", {"messages": chat, "chat_length": 9,
                                 "active_characters": ["Ivo"]})
    plan = plan_query(q, ChatConfig(), Tokenizer())
    # the last 3 non-system user messages, joined by "\n"
    assert plan.user_text == "Ask Olga\nGo there\nnow\nFine then"
    assert plan.message_tokens == ["ask", "olga", "fine"]  # go, there, now, then: dropped
    # lines newest first: 0 "Fine then", 1 "now", 2 "Go there", 3 "Ask Olga", 4 "Marta is at
    # the Lighthouse.", 5 "Where is Marta?" (Where: a starter). Weights: Ivo 3.0 (active),
    # Marta 0.64 + 0.55, Fine 1.0, Ask 0.73, Olga 0.73, Lighthouse 0.64 → the top 5
    assert plan.entities.entities == ["Ivo", "Marta", "Fine", "Ask", "Olga"]
    assert plan.entities.weights["Marta"] == (1 - 4 * 0.09) + (1 - 5 * 0.09)
    assert plan.entity_tokens == [["ivo"], ["marta"], ["fine"], ["ask"], ["olga"]]
    # embedding: the user text's last 3 lines newest first, then the entity names
    assert plan.embedding_text == "Fine then now Go there Ivo Marta Fine Ask Olga"
    assert plan.chat_length == 9


def test_embedding_lines_and_user_messages_are_separate_constants() -> None:
    # the original: the last 3 user messages, then parseRecentMessages(userMessages, 3)
    chat = _chat(("one", True, False), ("two", True, False), ("three", True, False),
                 ("four\nfive", True, False))
    q = Query("q", "five", {"messages": chat})
    wide = plan_query(q, ChatConfig(user_messages=4, embedding_lines=5), Tokenizer())
    assert wide.user_text == "one\ntwo\nthree\nfour\nfive"
    assert wide.embedding_text == "five four three two one "
    lines = plan_query(q, ChatConfig(user_messages=4), Tokenizer())
    assert lines.user_text == wide.user_text  # the BM25 text keeps its 4 messages …
    assert lines.embedding_text == "five four three "  # … the embedding its 3 lines


def test_entity_lines_and_entity_window_are_separate_constants() -> None:
    """The original reads parseRecentMessages(chat, 10), then extractQueryContext scans at
    most 10 of those: two literals, one parameter each (entity_window had set both)."""
    from workbench.core.models.hybrid.query import QueryConfig

    # Marta on the 12th line from the newest: outside 10 lines, whatever the scan window
    chat = _chat(("Marta rides north", False, False),
                 *((f"line {i}", False, False) for i in range(11)))
    q = Query("q", "line", {"messages": chat})
    found = ["Marta" in plan_query(q, ChatConfig(query=QueryConfig(entity_window=window),
                                                  entity_lines=lines), Tokenizer()
                                    ).entities.entities
             for lines, window in ((10, 20), (12, 10), (12, 12), (0, 20))]
    assert found == [False, False, True, True]  # 0 lines: every line, as slice(-0)


def test_plan_of_a_plain_query() -> None:
    plan = plan_query(Query("q", "Dragons of the north"), ChatConfig(), Tokenizer())
    assert plan.message_tokens == ["dragon", "north"] and plan.entities.entities == []
    assert plan.embedding_text == "Dragons of the north" and plan.chat_length is None


def test_user_text_keeps_its_last_units() -> None:
    chat = _chat(("abcdef", True, False))
    q = Query("q", "abcdef", {"messages": chat})
    plan = plan_query(q, ChatConfig(user_chars=4), Tokenizer())
    assert plan.user_text == "cdef" and plan.chat_length == 1
