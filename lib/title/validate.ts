import type { TitleConfig } from "./config";
import { capModelTitle, readModelReply } from "./parse";
import { scriptsOf, userScripts } from "./scripts";

export type TitleVerdict = { ok: true; title: string } | { ok: false; reason: string };

const A = "(?:'|\u2019)"; // straight or typographic apostrophe
const END_OF_WORD = "(?![\\p{L}\\p{N}])";

// Each needs the refusing verb's object, so a title like "I Can't Sleep" is not a refusal.
const REFUSAL = new RegExp(
  [
    `^i(?:\\s+(?:can${A}?t|cannot|can not|won${A}t|am unable to|am not able to)|${A}m (?:unable|not able) to)\\s+(?:help|assist|comply|do (?:that|this|it|so)|provide|generate|create|write|answer|fulfil|fulfill|support|engage|share|give|produce|title|name|summari[sz]e|continue|respond|process)${END_OF_WORD}`,
    `^(?:i${A}m|i am)\\s+(?:so\\s+|very\\s+)?sorry\\s*(?:[,.!;:]|but${END_OF_WORD})`,
    `^sorry\\s*[,.!]`,
    `^i\\s+apologi[sz]e${END_OF_WORD}`,
    `^as an?\\s+(?:ai|artificial intelligence|(?:large\\s+)?language model|assistant)${END_OF_WORD}`,
    `^unfortunately,?\\s+i${END_OF_WORD}`,
    // es, pt, fr, de, it, ru
    `^(?:lo siento|lo lamento|no puedo (?:ayudar|hacer|proporcionar|generar|responder|cumplir)|como (?:una\\s+)?ia${END_OF_WORD})`,
    `^(?:desculpe|sinto muito|não posso (?:ajudar|fazer|fornecer|gerar|responder)|como (?:uma\\s+)?ia${END_OF_WORD})`,
    `^(?:désolée?|je suis désolée?|je ne peux pas (?:vous |t${A})?(?:aider|faire|fournir|générer|répondre)|en tant qu${A}(?:ia|intelligence artificielle|assistant))`,
    `^(?:es tut mir leid|tut mir leid|leider kann ich|ich kann (?:dir |ihnen |dabei |das )*(?:leider )?nicht (?:helfen|tun|beantworten)|als (?:eine\\s+)?ki${END_OF_WORD})`,
    `^(?:mi dispiace|spiacente|non posso (?:aiutare|fare|fornire|rispondere))`,
    `^(?:извините|простите|к сожалению|я не могу|как (?:ии|языковая модель)${END_OF_WORD})`,
    // zh, ja, ko
    `^(?:抱歉|很抱歉|对不起|對不起|我(?:不能|无法|無法|没办法)(?:帮|幫|协助|協助|提供|回答|完成|生成)|作为(?:一个)?(?:AI|人工智能|语言模型))`,
    `^(?:申し訳(?:ありません|ございません)|すみませんが|ごめんなさい|(?:私|わたし)は(?:AI|ＡＩ)|AIとして)`,
    `^(?:죄송합니다|죄송하지만|미안하지만|(?:AI|인공지능)로서)`,
  ].join("|"),
  "iu",
);

// Openers of a reply to the user rather than a name for the conversation.
const ANSWER = new RegExp(
  [
    `^(?:sure|certainly|of course|absolutely|okay|ok|alright|great question|good question)(?:\\s*[!,.:;\u2014\u2013-]|\\s+(?:here|i|let${A}?s|let|the)${END_OF_WORD})`,
    `^here${A}s${END_OF_WORD}`,
    `^here (?:is|are)${END_OF_WORD}`,
    `^the answer(?:\\s+to\\s+[^.?!]{0,80})?\\s+is${END_OF_WORD}`,
    `^to answer your question${END_OF_WORD}`,
    `^¡?(?:claro|por supuesto|desde luego)\\s*[!,.]`,
    `^(?:bien sûr|voici|voilà)${END_OF_WORD}`,
    `^(?:natürlich|klar|gerne|hier ist|hier sind)\\s*[!,.:]`,
    `^(?:конечно|вот)${END_OF_WORD}`,
    `^(?:当然|好的|以下是|答案是|這是|这是)`,
    `^(?:もちろん|はい、|以下は)`,
    `^(?:물론|네,)`,
  ].join("|"),
  "iu",
);

// Terminators that end a sentence wherever they stand.
const CJK_END = /[。！？｡]+/gu;
// Terminators that end a sentence when followed by space or the end (closing quotes may come between).
const SPACED_END = /(?:[!?؟।॥‼⁇⁈⁉]+|(?<!\.)\.(?!\.))(?=["'”’»)\]]*(?:\s|$))/gu;
const ABBREVIATIONS = new Set(
  "mr mrs ms dr prof st jr sr vs etc no vol fig inc ltd co approx dept est min max ca cf al nr bzw usw ggf".split(" "),
);
const WORD_BEFORE = /\p{L}+$/u;
const MORE_TEXT = /[\p{L}\p{N}]/u;

/** Positions just past each sentence end. A "." after a number, an initial or an abbreviation is not one. */
function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (const m of text.matchAll(CJK_END)) ends.push(m.index + m[0].length);
  for (const m of text.matchAll(SPACED_END)) {
    if (m[0] === ".") {
      const word = WORD_BEFORE.exec(text.slice(Math.max(0, m.index - 24), m.index))?.[0];
      if (word === undefined || word.length < 2 || ABBREVIATIONS.has(word.toLowerCase())) continue;
    }
    ends.push(m.index + m[0].length);
  }
  return ends;
}

function severalSentences(text: string): boolean {
  const ends = sentenceEnds(text);
  return ends.length >= 2 && ends.some((i) => MORE_TEXT.test(text.slice(i)));
}

// Scripts written without spaces: their characters are counted instead of words.
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
// Thai-family syllables take several code points (vowel and tone marks), roughly three per CJK character.
const DENSE_SYLLABIC = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
const WORD = /[\p{L}\p{N}]/u;

function lengthProblem(title: string, maxWords: number): string | null {
  const dense = (title.match(DENSE)?.length ?? 0) + (title.match(DENSE_SYLLABIC)?.length ?? 0) / 3;
  const rest = title.replace(DENSE, " ").replace(DENSE_SYLLABIC, " ");
  const words = rest.split(/\s+/).filter((w) => WORD.test(w)).length;
  if (dense === 0) return words > 2 * maxWords ? `too-many-words (${words} > ${2 * maxWords})` : null;
  // The prompt asks for about 2×max_words characters; a word beside them counts as two.
  const chars = Math.ceil(dense + 2 * words);
  return chars > 4 * maxWords ? `too-many-characters (${chars} > ${4 * maxWords})` : null;
}

function scriptProblem(userText: string, title: string): string | null {
  const user = userScripts(userText);
  const inTitle = scriptsOf(title);
  // A title of digits or emoji, or a user text of code or numbers, shows no language to compare.
  if (user === null || inTitle.length === 0) return null;
  if (inTitle.some((g) => user.accepted.has(g))) return null;
  return `script-mismatch (user: ${user.dominant}, title: ${inTitle[0]})`;
}

/**
 * Accepts a model's reply as a conversation title or says why not. A rejected reply should be
 * replaced by the fallback title, never shown.
 */
export function validateModelTitle(output: unknown, ctx: { userText: string; config: TitleConfig }): TitleVerdict {
  const reply = readModelReply(output);
  const title = capModelTitle(reply, ctx.config);
  if (title === null) return { ok: false, reason: reply.thought && reply.raw === "" ? "think-only" : "empty" };
  if (REFUSAL.test(reply.cleaned)) return { ok: false, reason: "refusal" };
  if (ANSWER.test(reply.cleaned)) return { ok: false, reason: "answer-not-title" };
  if (reply.truncated) return { ok: false, reason: "too-long" };
  if (reply.lines > 1) return { ok: false, reason: "several-lines" };
  if (severalSentences(reply.raw)) return { ok: false, reason: "several-sentences" };
  const tooLong = lengthProblem(reply.cleaned, ctx.config.max_words);
  if (tooLong) return { ok: false, reason: tooLong };
  const mismatch = scriptProblem(typeof ctx.userText === "string" ? ctx.userText : "", title);
  if (mismatch) return { ok: false, reason: mismatch };
  return { ok: true, title };
}
