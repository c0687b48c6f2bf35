#!/usr/bin/env python3
"""Writes the recorded tool-call streams under tests/data/streams/.

Every event is built from the official Python SDKs' own model types
(constructed with their constructors, which validate) and serialized with
the SDK's own serializer, so the shapes are the SDKs', not ours:

    openai     3.57.0   (ChatCompletionChunk, Response*Event)
    anthropic  2.14.0   (RawMessageStreamEvent and its members)
    pydantic   2.14.4

OpenAI chunks and events are written with `to_json(indent=None)`, which
leaves out what was not set, as the API does (the SDK's own chat
accumulator fails on a `"type": null` in a later `tool_calls` entry, so
`model_dump_json()`, which writes every unset member as `null`, is not what
the API sends there); members the API does send as `null` are set to `None`.
Anthropic events are written with `model_dump_json()`, unset members as
`null`, so the readers meet both.
Each event is framed as a server-sent event the way the API sends it:
`event: <type>` then `data: <json>` for Responses and Anthropic, `data:`
alone and a final `data: [DONE]` for chat completions.

Next to each `<name>.sse` goes `<name>.expected.json`: what the SDK's own
stream accumulator reports at the end (openai's `ChatCompletionStreamState`
and `ResponseStreamState`, anthropic's `accumulate_event`), fed the same
event objects. The tests compare the readers' output against it.

The argument texts are split by hand, on purpose at awkward places: inside
escapes (`\\u20` | `14`, a backslash | the character it escapes, the two
halves of a surrogate pair), between multi-byte characters. Calls of one
response interleave, which the protocols allow by keying every delta (today
the providers send one call after another). Not run in CI:

    python3 -m venv /tmp/sdk
    /tmp/sdk/bin/pip install openai==3.57.0 anthropic==2.14.0
    /tmp/sdk/bin/python scripts/stream-fixtures.py
"""

import json
from pathlib import Path

import anthropic
import openai
import pydantic
from anthropic.lib.streaming._messages import accumulate_event
from anthropic.types import (
    InputJSONDelta,
    Message,
    MessageDeltaUsage,
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawContentBlockStopEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    RawMessageStopEvent,
    ServerToolUseBlock,
    TextBlock,
    TextDelta,
    ToolUseBlock,
    Usage,
)
from anthropic.types.raw_message_delta_event import Delta as MessageDelta
from openai import omit
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.lib.streaming.responses._responses import ResponseStreamState
from openai.types.chat.chat_completion_chunk import (
    ChatCompletionChunk,
    Choice,
    ChoiceDelta,
    ChoiceDeltaToolCall,
    ChoiceDeltaToolCallFunction,
)
from openai.types.completion_usage import CompletionUsage
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseCreatedEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseFunctionToolCall,
    ResponseInProgressEvent,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseReasoningItem,
)

assert openai.__version__ == "3.57.0", openai.__version__
assert anthropic.__version__ == "2.14.0", anthropic.__version__

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "streams"


def no_extra(model):
    """Fails when a constructor took a member the SDK type does not declare
    (pydantic keeps those as extras instead of refusing them)."""
    if isinstance(model, pydantic.BaseModel):
        assert not model.model_extra, (type(model).__name__, model.model_extra)
        for name in type(model).model_fields:
            no_extra(getattr(model, name))
    elif isinstance(model, (list, tuple)):
        for item in model:
            no_extra(item)
    elif isinstance(model, dict):
        for item in model.values():
            no_extra(item)


def fragments(text, *cuts):
    """`text` cut before each of the given substrings' first occurrence at
    or after the previous cut, checked to join back and to be JSON."""
    json.loads(text)
    parts, start = [], 0
    for cut in cuts:
        at = text.index(cut, start + 1)
        parts.append(text[start:at])
        start = at
    parts.append(text[start:])
    assert "".join(parts) == text
    return parts


def even(text, size):
    json.loads(text)
    return [text[i : i + size] for i in range(0, len(text), size)]


def write(name, events, expected, sse):
    OUT.mkdir(parents=True, exist_ok=True)
    for event in events:
        no_extra(event)
    (OUT / f"{name}.sse").write_text(sse, encoding="utf-8")
    (OUT / f"{name}.expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


# ---------------------------------------------------------------- arguments

REFUND = (
    '{"order_id":"ord_8f2k1x9q","amount_cents":2500,"reason":"damaged",'
    '"note":"Vase arrived broken \\u2014 sorry! «Désolé» 🙏 \\"fragile\\"\\nThanks"}'
)
REFUND_PARTS = fragments(
    REFUND, "ord_8f2k", "1x9q", '00,"reason', 'aged","note', "14 sorry", "solé»",
    '"fragile', '\\"\\n', "\\nThanks", "nThanks",
)
WRITE_FILE = (
    '{"path":"notes/東京.md","content":"# 東京\\n\\tline \\"2\\" \\\\ end \\ud83d\\ude00 😀"}'
)
WRITE_FILE_PARTS = fragments(
    WRITE_FILE, 'th":"notes/東', '京.md"', "line", "\\\\ end", "\\ end", "\\ude00",
)
# Certainly wrong partway: `amount_cents` is an integer, not text.
REFUND_WRONG_TYPE = (
    '{"order_id":"ord_8f2k1x9q","amount_cents":"25.00","reason":"damaged",'
    '"note":"Customer says the vase arrived in pieces; refund the full amount."}'
)
# Certainly wrong partway: `amount` is not a member of the refund.
REFUND_UNKNOWN_KEY = (
    '{"order_id":"ord_8f2k1x9q","amount":2500,"reason":"late",'
    '"note":"Parcel held at the depot for nine days."}'
)
# Certainly wrong partway: `broken` is not a reason.
REFUND_OUTSIDE_ENUM = (
    '{"order_id":"ord_8f2k1x9q","amount_cents":2500,"reason":"broken",'
    '"note":"Glass shattered in transit, photos attached to the ticket."}'
)


# ---------------------------------------------------------------- chat completions


def chunk(choices, usage=None):
    return ChatCompletionChunk(
        id="chatcmpl-Cx7stream01",
        choices=choices,
        created=1764500000,
        model="gpt-5",
        object="chat.completion.chunk",
        system_fingerprint="fp_5e1f0a",
        usage=usage,
    )


def call_delta(index, *, id=None, name=None, arguments=None):
    """A `tool_calls` entry with only the members given: the API sends `id`,
    `type` and the name in the entry that opens a call, and leaves them out
    of the rest (the SDK's accumulator relies on that)."""
    members = {"index": index}
    if id is not None:
        members.update(id=id, type="function")
    function = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    if function:
        members["function"] = ChoiceDeltaToolCallFunction(**function)
    return ChoiceDeltaToolCall(**members)


def choice(index, delta, finish_reason=None):
    # The API writes `logprobs` and `finish_reason` as null while a choice
    # streams: set them, so the serializer keeps them.
    return Choice(index=index, delta=delta, logprobs=None, finish_reason=finish_reason)


def chat(name, chunks):
    state = ChatCompletionStreamState()
    for c in chunks:
        state.handle_chunk(c)
    final = state.get_final_completion()
    calls = []
    for choice in final.choices:
        for position, call in enumerate(choice.message.tool_calls or []):
            calls.append(
                {
                    "choice": choice.index,
                    "index": position,
                    "id": call.id,
                    "name": call.function.name,
                    "arguments": call.function.arguments,
                }
            )
    sse = "".join(f"data: {c.to_json(indent=None)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    write(name, chunks, {"format": "openai_chat", "calls": calls}, sse)


def chat_parallel():
    chunks = [
        chunk([choice(0, delta=ChoiceDelta(role="assistant", content=""))]),
        chunk([choice(0, delta=ChoiceDelta(content="Refunding and noting it."))]),
        # The name comes first, with empty arguments, as OpenAI sends it.
        chunk([choice(0, delta=ChoiceDelta(tool_calls=[
            call_delta(0, id="call_R3fUnd8f2k", name="refund", arguments="")]))]),
        chunk([choice(0, delta=ChoiceDelta(tool_calls=[
            call_delta(0, arguments=REFUND_PARTS[0])]))]),
        # A server that splits the name: the SDK joins the fragments.
        chunk([choice(0, delta=ChoiceDelta(tool_calls=[
            call_delta(1, id="call_Wr1teT0kyo", name="write_", arguments="")]))]),
        chunk([choice(0, delta=ChoiceDelta(tool_calls=[
            ChoiceDeltaToolCall(index=1, function=ChoiceDeltaToolCallFunction(name="file"))]))]),
    ]
    refund, write_file = REFUND_PARTS[1:], list(WRITE_FILE_PARTS)
    while refund or write_file:
        entries = []
        if write_file:
            entries.append(call_delta(1, arguments=write_file.pop(0)))
        if refund:
            entries.append(call_delta(0, arguments=refund.pop(0)))
        # Now and then both calls in one chunk.
        if len(refund) % 3 == 0:
            chunks.append(chunk([choice(0, delta=ChoiceDelta(tool_calls=entries))]))
        else:
            for entry in entries:
                chunks.append(chunk([choice(0, delta=ChoiceDelta(tool_calls=[entry]))]))
    chunks.append(chunk([choice(0, delta=ChoiceDelta(), finish_reason="tool_calls")]))
    # `stream_options: {"include_usage": true}`: a last chunk without choices.
    chunks.append(chunk([], usage=CompletionUsage(
        prompt_tokens=212, completion_tokens=96, total_tokens=308)))
    chat("openai_chat_parallel", chunks)


def chat_two_choices():
    first = fragments(
        '{"order_id":"ord_8f2k1x9q","amount_cents":2500,"reason":"damaged"}',
        '"amount', '"reason',
    )
    second = fragments(
        '{"order_id":"ord_8f2k1x9q","amount_cents":5000,"reason":"late","note":"Zu spät — Entschuldigung"}',
        '"amount', "late", "spät", "Ent",
    )
    chunks = [
        chunk([
            choice(0, delta=ChoiceDelta(role="assistant", tool_calls=[
                call_delta(0, id="call_ChoiceZero01", name="refund", arguments="")])),
            choice(1, delta=ChoiceDelta(role="assistant", tool_calls=[
                call_delta(0, id="call_ChoiceOne001", name="refund", arguments="")])),
        ]),
    ]
    while first or second:
        choices = []
        if first:
            choices.append(choice(0, delta=ChoiceDelta(tool_calls=[
                call_delta(0, arguments=first.pop(0))]),
                finish_reason=None if first else "tool_calls"))
        if second:
            choices.append(choice(1, delta=ChoiceDelta(tool_calls=[
                call_delta(0, arguments=second.pop(0))])))
        chunks.append(chunk(choices))
    chunks.append(chunk([choice(1, delta=ChoiceDelta(), finish_reason="tool_calls")]))
    chat("openai_chat_two_choices", chunks)


def chat_rejected():
    chunks = [
        chunk([choice(0, delta=ChoiceDelta(role="assistant", tool_calls=[
            call_delta(0, id="call_W0ngTyp3x1", name="refund", arguments="")]))]),
    ]
    for part in even(REFUND_WRONG_TYPE, 8):
        chunks.append(chunk([choice(0, delta=ChoiceDelta(tool_calls=[
            call_delta(0, arguments=part)]))]))
    chunks.append(chunk([choice(0, delta=ChoiceDelta(), finish_reason="tool_calls")]))
    chat("openai_chat_rejected", chunks)


# ---------------------------------------------------------------- responses


class Sequence:
    def __init__(self):
        self.number = -1

    def __call__(self):
        self.number += 1
        return self.number


def response(status, output):
    return Response(
        id="resp_0a1b2c3d4e5f",
        created_at=1764500000,
        model="gpt-5",
        object="response",
        output=output,
        parallel_tool_calls=True,
        tool_choice="auto",
        tools=[],
        status=status,
    )


def function_call(item_id, call_id, name, arguments, status):
    return ResponseFunctionToolCall(
        id=item_id, call_id=call_id, name=name, arguments=arguments,
        type="function_call", status=status,
    )


def responses(name, events):
    state = ResponseStreamState(input_tools=omit, text_format=omit)
    for event in events:
        state.handle_event(event)
    final = state._completed_response
    assert final is not None, "no response.completed"
    calls = [
        {"index": index, "id": item.call_id, "name": item.name, "arguments": item.arguments}
        for index, item in enumerate(final.output)
        if item.type == "function_call"
    ]
    sse = "".join(f"event: {e.type}\ndata: {e.to_json(indent=None)}\n\n" for e in events)
    write(name, events, {"format": "openai_responses", "calls": calls}, sse)


def responses_stream(name, calls, interleave):
    """`calls`: (output_index, item_id, call_id, tool name, fragments)."""
    seq = Sequence()
    reasoning = ResponseReasoningItem(id="rs_77aa", summary=[], type="reasoning")
    events = [
        ResponseCreatedEvent(response=response("in_progress", []), sequence_number=seq(),
                             type="response.created"),
        ResponseInProgressEvent(response=response("in_progress", []), sequence_number=seq(),
                                type="response.in_progress"),
        ResponseOutputItemAddedEvent(item=reasoning, output_index=0, sequence_number=seq(),
                                     type="response.output_item.added"),
        ResponseOutputItemDoneEvent(item=reasoning, output_index=0, sequence_number=seq(),
                                    type="response.output_item.done"),
    ]
    pending = []
    for index, item_id, call_id, tool, parts in calls:
        events.append(ResponseOutputItemAddedEvent(
            item=function_call(item_id, call_id, tool, "", "in_progress"),
            output_index=index, sequence_number=seq(), type="response.output_item.added"))
        pending.append([index, item_id, list(parts)])
        if not interleave:
            pending[-1].append(None)

    def finish(index, item_id, text, call_id, tool):
        events.append(ResponseFunctionCallArgumentsDoneEvent(
            arguments=text, item_id=item_id, output_index=index, sequence_number=seq(),
            type="response.function_call_arguments.done"))
        events.append(ResponseOutputItemDoneEvent(
            item=function_call(item_id, call_id, tool, text, "completed"),
            output_index=index, sequence_number=seq(), type="response.output_item.done"))

    by_index = {index: (call_id, tool, "".join(parts)) for index, _, call_id, tool, parts in calls}
    while any(p[2] for p in pending):
        for p in pending:
            if p[2]:
                events.append(ResponseFunctionCallArgumentsDeltaEvent(
                    delta=p[2].pop(0), item_id=p[1], output_index=p[0], sequence_number=seq(),
                    type="response.function_call_arguments.delta"))
                if not p[2]:
                    call_id, tool, text = by_index[p[0]]
                    finish(p[0], p[1], text, call_id, tool)
    output = [reasoning] + [
        function_call(item_id, call_id, tool, "".join(parts), "completed")
        for _, item_id, call_id, tool, parts in calls
    ]
    events.append(ResponseCompletedEvent(response=response("completed", output),
                                         sequence_number=seq(), type="response.completed"))
    responses(name, events)


def responses_parallel():
    responses_stream("openai_responses_parallel", [
        (1, "fc_01refund", "call_R3fUnd8f2k", "refund", REFUND_PARTS),
        (2, "fc_02write", "call_Wr1teT0kyo", "write_file", WRITE_FILE_PARTS),
    ], interleave=True)


def responses_rejected():
    responses_stream("openai_responses_rejected", [
        (1, "fc_01amount", "call_Unkn0wnK3y", "refund", even(REFUND_UNKNOWN_KEY, 6)),
    ], interleave=False)


# ---------------------------------------------------------------- anthropic


def message_start():
    return RawMessageStartEvent(
        message=Message(
            id="msg_01StreamFixture",
            content=[],
            model="claude-sonnet-4-5",
            role="assistant",
            stop_reason=None,
            stop_sequence=None,
            type="message",
            usage=Usage(input_tokens=412, output_tokens=1),
        ),
        type="message_start",
    )


def input_delta(index, text):
    return RawContentBlockDeltaEvent(
        index=index, delta=InputJSONDelta(partial_json=text, type="input_json_delta"),
        type="content_block_delta")


def tool_start(index, id, name):
    return RawContentBlockStartEvent(
        index=index, content_block=ToolUseBlock(id=id, name=name, input={}, type="tool_use"),
        type="content_block_start")


# The API sends `event: ping` with `{"type": "ping"}`; the SDK has no type
# for it (its decoder drops pings), so it is written as the API documents it.
PING = object()


def anthropic_sse(event):
    if event is PING:
        return 'event: ping\ndata: {"type": "ping"}\n\n'
    return f"event: {event.type}\ndata: {event.model_dump_json()}\n\n"


def anthropic_stream(name, events):
    snapshot, bufs = None, {}
    for event in events:
        if event is PING:
            continue
        snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=bufs)
    calls = [
        {"index": index, "id": block.id, "name": block.name, "input": block.input}
        for index, block in enumerate(snapshot.content)
        if block.type == "tool_use"
    ]
    # The SSE framing of the API: `ping` events included.
    sse = "".join(anthropic_sse(e) for e in events)
    write(name, [e for e in events if e is not PING], {"format": "anthropic", "calls": calls}, sse)


def anthropic_tail():
    return [
        RawMessageDeltaEvent(
            delta=MessageDelta(stop_reason="tool_use", stop_sequence=None),
            usage=MessageDeltaUsage(output_tokens=188), type="message_delta"),
        RawMessageStopEvent(type="message_stop"),
    ]


def anthropic_parallel():
    events = [
        message_start(),
        RawContentBlockStartEvent(index=0, content_block=TextBlock(text="", type="text"),
                                  type="content_block_start"),
        RawContentBlockDeltaEvent(index=0, delta=TextDelta(text="Checking the order, then ",
                                                           type="text_delta"),
                                  type="content_block_delta"),
        RawContentBlockDeltaEvent(index=0, delta=TextDelta(text="refunding.", type="text_delta"),
                                  type="content_block_delta"),
        RawContentBlockStopEvent(index=0, type="content_block_stop"),
        # A tool the API runs itself: its input streams too, and is not ours.
        RawContentBlockStartEvent(
            index=1,
            content_block=ServerToolUseBlock(id="srvtoolu_01Search", name="web_search", input={},
                                             type="server_tool_use"),
            type="content_block_start"),
        input_delta(1, ""),
        input_delta(1, '{"query": "carrier delay'),
        input_delta(1, ' depot"}'),
        RawContentBlockStopEvent(index=1, type="content_block_stop"),
        tool_start(2, "toolu_01Refund8f2k", "refund"),
        # The API's first input delta is empty.
        input_delta(2, ""),
        tool_start(3, "toolu_02WriteTokyo", "write_file"),
        input_delta(3, ""),
    ]
    refund, write_file = list(REFUND_PARTS), list(WRITE_FILE_PARTS)
    while refund or write_file:
        if refund:
            events.append(input_delta(2, refund.pop(0)))
            if not refund:
                events.append(RawContentBlockStopEvent(index=2, type="content_block_stop"))
        if write_file:
            events.append(input_delta(3, write_file.pop(0)))
            if not write_file:
                events.append(RawContentBlockStopEvent(index=3, type="content_block_stop"))
        if len(refund) == 4:
            events.append(PING)
    events += anthropic_tail()
    anthropic_stream("anthropic_parallel", events)


def anthropic_rejected():
    events = [message_start(), tool_start(0, "toolu_01NotAReason", "refund"), input_delta(0, "")]
    events += [input_delta(0, part) for part in even(REFUND_OUTSIDE_ENUM, 5)]
    events.append(RawContentBlockStopEvent(index=0, type="content_block_stop"))
    events += anthropic_tail()
    anthropic_stream("anthropic_rejected", events)


if __name__ == "__main__":
    chat_parallel()
    chat_two_choices()
    chat_rejected()
    responses_parallel()
    responses_rejected()
    anthropic_parallel()
    anthropic_rejected()
    print(f"wrote {len(list(OUT.glob('*.sse')))} streams to {OUT}")
