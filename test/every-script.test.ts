// The model-free summary in every script: never empty where there is something to summarize, and
// `onError: "fallback"` falls back wherever the same chat in English does. A character of Japanese
// is three UTF-8 bytes and an emoji four, so a summary that trims by a guess of characters per token
// cuts three or four times too much of them.
import { describe, expect, it } from "vitest";
import { compactor, extractiveSummary } from "../src/index.js";
import { utf8ByteLength } from "../src/counting/utf8-length.js";

const textTokens = (text: string) => Math.ceil(utf8ByteLength(text) / 4);

/** The same support chat, line by line, in each script: the user asks, the agent answers. */
const CHATS: Record<string, readonly string[]> = {
  English: [
    "Hello, my order has not arrived yet. Could you check where it is for me, please?",
    "Of course. Could you give me your order number and the email address on the account?",
    "It is order W2378156, placed on the first of May, and the email is ada@example.com.",
    "Thank you. The parcel left our warehouse on the third and is with the courier now.",
    "The tracking page has not changed for a week, which worries me a lot, to be honest.",
    "I understand. I will open an investigation with the courier today and write to you.",
    "How long will the investigation take, and will I get a refund if the parcel is lost?",
    "Usually three to five working days; if it is lost, we refund you in full or send a new one.",
    "Please send a new one in that case, to the same address as before. Thank you for your help.",
  ],
  Japanese: [
    "こんにちは。注文した商品がまだ届いていません。今どこにあるのか確認していただけますか。",
    "かしこまりました。ご注文番号と、アカウントのメールアドレスを教えていただけますか。",
    "注文番号はW2378156で、五月一日に注文しました。メールはada@example.comです。",
    "ありがとうございます。荷物は三日に倉庫を出発し、現在は配送業者が保管しております。",
    "追跡ページが一週間も更新されておらず、正直なところとても心配しています。",
    "承知いたしました。本日中に配送業者へ調査を依頼し、結果をご連絡いたします。",
    "調査にはどのくらいかかりますか。荷物が紛失した場合は返金されますか。",
    "通常は三から五営業日です。紛失の場合は全額返金、または新しい商品をお送りします。",
    "その場合は、前と同じ住所に新しい商品を送ってください。ご対応ありがとうございます。",
  ],
  Chinese: [
    "你好，我订购的商品还没有到。能帮我查一下现在在哪里吗？",
    "当然可以。请告诉我您的订单号和账户的电子邮箱地址。",
    "订单号是W2378156，五月一日下的单，邮箱是ada@example.com。",
    "谢谢。包裹已于三日离开仓库，目前在快递公司手中。",
    "物流页面一个星期都没有更新了，说实话我很担心。",
    "我明白。我今天会向快递公司申请调查，并把结果告诉您。",
    "调查需要多长时间？如果包裹丢失了，可以退款吗？",
    "通常需要三到五个工作日；如果丢失，我们会全额退款或重新发货。",
    "那样的话，请把新的商品寄到和之前相同的地址。谢谢您的帮助。",
  ],
  Korean: [
    "안녕하세요. 주문한 상품이 아직 도착하지 않았습니다. 지금 어디에 있는지 확인해 주실 수 있나요?",
    "물론입니다. 주문 번호와 계정의 이메일 주소를 알려 주시겠어요?",
    "주문 번호는 W2378156이고 5월 1일에 주문했습니다. 이메일은 ada@example.com입니다.",
    "감사합니다. 소포는 3일에 창고를 출발했고 현재 택배사가 보관하고 있습니다.",
    "배송 조회 페이지가 일주일째 바뀌지 않아서 솔직히 많이 걱정됩니다.",
    "이해합니다. 오늘 택배사에 조사를 요청하고 결과를 알려 드리겠습니다.",
    "조사는 얼마나 걸리나요? 소포가 분실되면 환불받을 수 있나요?",
    "보통 3~5 영업일이 걸립니다. 분실된 경우 전액 환불하거나 새 상품을 보내 드립니다.",
    "그런 경우에는 이전과 같은 주소로 새 상품을 보내 주세요. 도와주셔서 감사합니다.",
  ],
  Russian: [
    "Здравствуйте, мой заказ до сих пор не пришёл. Не могли бы вы проверить, где он сейчас?",
    "Конечно. Назовите, пожалуйста, номер заказа и адрес электронной почты в аккаунте.",
    "Это заказ W2378156, оформлен первого мая, почта ada@example.com.",
    "Спасибо. Посылка покинула наш склад третьего числа и сейчас находится у курьера.",
    "Страница отслеживания не менялась уже неделю, и, честно говоря, меня это очень беспокоит.",
    "Понимаю. Сегодня же я открою расследование у курьерской службы и напишу вам.",
    "Сколько займёт расследование и вернут ли мне деньги, если посылка потеряна?",
    "Обычно от трёх до пяти рабочих дней; если она потеряна, мы вернём деньги или отправим новую.",
    "В таком случае отправьте, пожалуйста, новую по тому же адресу. Спасибо за помощь.",
  ],
  Arabic: [
    "مرحبا، لم يصل طلبي بعد. هل يمكنك التحقق من مكانه الآن من فضلك؟",
    "بالتأكيد. هل يمكنك إعطائي رقم الطلب وعنوان البريد الإلكتروني للحساب؟",
    "رقم الطلب W2378156، وقد طلبته في الأول من مايو، والبريد هو ada@example.com.",
    "شكرا لك. غادر الطرد مستودعنا في الثالث وهو الآن لدى شركة الشحن.",
    "صفحة التتبع لم تتغير منذ أسبوع، وهذا يقلقني كثيرا بصراحة.",
    "أتفهم ذلك. سأفتح تحقيقا مع شركة الشحن اليوم وأراسلك بالنتيجة.",
    "كم سيستغرق التحقيق، وهل سأسترد المبلغ إذا ضاع الطرد؟",
    "عادة من ثلاثة إلى خمسة أيام عمل؛ إذا ضاع نعيد المبلغ كاملا أو نرسل طردا جديدا.",
    "في هذه الحالة أرسلوا طردا جديدا إلى العنوان نفسه من فضلكم. شكرا على مساعدتكم.",
  ],
  emoji: [
    "👋😊 📦❓ W2378156 🤔🙏🏽 📍🔎👀 🚚💨❓😟 🙋🏻‍♀️📦🕐❓ 🇯🇵➡️🇺🇸",
    "👍🏽✅ 🔢❓ 📧❓ 🙂🙏 👨‍💻🔎 🗂️📋 ✍️⏳",
    "🔢 W2378156 📅 5️⃣/1️⃣ 📧 ada@example.com ✅🙂 👨‍👩‍👧 🏠",
    "🙏😊 📦🏭➡️🚚 3️⃣ 📍🚚 ✅ 🇩🇪➡️🇫🇷",
    "🔎📄 7️⃣📅 ❌🔄 😟😰😥 🙁 ⏳⏳⏳",
    "🤝✅ 🚚🕵️‍♂️🔍 📅⏱️ 📩➡️👤 👩🏾‍💼",
    "⏳❓ 💸↩️❓ 📦❌😱 🤷🏻‍♂️",
    "3️⃣➖5️⃣📅 📦❌ ➡️ 💯💸↩️ 🔁📦✨ 🎁",
    "🔁📦➡️🏠 ✅ 🙏😊 ❤️ 🌈🏳️‍🌈 👍🏿",
  ],
};

/** The chat as nine messages of a few lines each (about 200 characters or more): enough for every section to quote and cut. */
function chatIn(script: string, prose = false): { role: string; content: string }[] {
  // Prose alone: the line with the order number and the email left out, so that nothing ranks as a fact.
  const lines = prose ? CHATS[script]!.filter((_, index) => index !== 2) : CHATS[script]!;
  return Array.from({ length: 9 }, (_, index) => {
    const content = [0, 1, 2, 3].map((offset) => lines[(index + offset) % lines.length]).join(" ");
    return { role: index % 2 === 0 ? "user" : "assistant", content };
  });
}

/** The budgets from 60 to 600 at which the hook, its summarizer failing, rejects instead of falling back. */
async function rejectedBudgets(messages: readonly object[]): Promise<number[]> {
  const rejected: number[] = [];
  for (let maxTokens = 60; maxTokens <= 600; maxTokens += 3) {
    const hook = compactor({
      maxTokens,
      summarize: () => Promise.reject(new Error("model down")),
      onError: "fallback",
      fallback: extractiveSummary,
      events: { warnOverBudget: false },
    });
    await hook({ messages: messages as never }).catch(() => rejected.push(maxTokens));
  }
  return rejected;
}

describe("the model-free summary in every script", () => {
  it("600 characters of Japanese under maxTokens 100: a summary, within the budget", () => {
    const text = extractiveSummary([{ role: "user", content: "日本語の文章です。".repeat(67).slice(0, 600) }], {
      maxTokens: 100,
    });
    expect(text.length).toBeGreaterThan(40);
    expect(textTokens(JSON.stringify(text))).toBeLessThanOrEqual(100);
  });

  it.each(Object.keys(CHATS))("%s: never empty at any budget from 10 to 400, and within it", (script) => {
    const messages = chatIn(script);
    for (let maxTokens = 10; maxTokens <= 400; maxTokens++) {
      const text = extractiveSummary(messages, { maxTokens });
      expect(text.trim(), `at ${maxTokens}`).not.toBe("");
      expect(textTokens(text)).toBeLessThanOrEqual(maxTokens);
    }
  });

  it("onError: fallback falls back in every script wherever it does in English, on a chat of prose alone", async () => {
    const english = await rejectedBudgets(chatIn("English", true));
    const rejected: Record<string, number[]> = {};
    for (const script of Object.keys(CHATS)) {
      if (script !== "English")
        rejected[script] = (await rejectedBudgets(chatIn(script, true))).filter((budget) => !english.includes(budget));
    }
    expect(english).toEqual([]);
    expect(rejected).toEqual(Object.fromEntries(Object.keys(rejected).map((script) => [script, []])));
  });
});
