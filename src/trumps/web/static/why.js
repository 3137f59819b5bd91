// Reasons as sentences in the player's language: why a card or action cannot be played now
// (the game's reason: the server sends it per dimmed card in `why_not`, and with an
// `illegal_action` error as `why`), and why a hint's move is good (the bot's `why` in the
// `hint` message); docs/protocol.md. This module only words them; every sentence is a
// literal msgid of t().

import { cardName, lang, plural, suitName, t } from "./i18n.js";

/** "the seven of diamonds or the queen of spades", in the page's language. */
function either(cards) {
  const names = cards.map(cardName);
  try {
    return new Intl.ListFormat(lang(), { type: "disjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

/** The sentence for `why` ({code, rule, cards, suit}); null for none. */
export function whyText(why) {
  if (!why) return null;
  const cards = why.cards ?? [];
  const card = cards[0] ? cardName(cards[0]) : "";
  const top = cards.length ? cardName(cards.at(-1)) : "";
  const suit = why.suit ? suitName(why.suit) : "";
  const ledSuit = cards.length ? suitName(cards.at(-1).slice(-1)) : "";
  const p = { card, top, suit, led: ledSuit };
  switch (why.code) {
    case "game_over": return t("That game is over.");
    case "not_your_turn": return t("It is not your turn.");
    case "not_in_hand": return card ? t("You do not hold the {card}.", p) : t("You do not hold that card.");
    case "not_in_game": return t("That is not a move in this game.");
    case "choose_trump_first": return t("Choose your trump suit first.");
    case "trump_taken": return t("Another player already has {suit} as trumps.", p);
    case "trump_already_chosen": return t("You have chosen your trumps already: {suit}.", p);
    case "nothing_to_take": return t("The pile is empty: there is nothing to take; lead any card.");
    case "does_not_beat": return t("The {card} does not beat the {top}: beat it with a higher card of {led} or with one of your trumps ({suit}).", p);
    case "own_trump_on_top": return t("The {card} does not beat the {top}: a card of your own trumps is beaten only by a higher {suit} card.", p);
    case "own_trump_ace_on_top": return t("Nothing beats the {top}, the ace of your own trumps: you must take.", p);
    case "owe_second_card": return t("You beat it: now play a second card.");
    case "must_beat_when_able": return t("You must beat when you can (default rules): {cards} beats the top card.", { cards: either(cards) });
    case "rob_needs_trump_ace": return t("Only the player holding the {card} may rob.", { card: cardName(`A${why.suit}`) });
    case "rob_off": return t("Robbing is switched off at this table.");
    case "already_robbed": return t("The turn-up has already been robbed.");
    case "rob_first_trick_only": return t("You may rob only before you play to the first trick.");
    case "must_rob": return t("You hold the trump ace: at this table you must rob first.");
    case "must_follow": return t("You must follow {suit} (the {top} was led) or play a trump.", p);
    case "must_play_trump": return t("A trump was led (the {top}): you must play a trump.", p);
    case "renege_only_vs_lower":
      return t("{cards} may renege only against a lower trump, and the {top} was led: you must play a trump.",
        { cards: either(cards.slice(0, -1)), top });
    case "joker_discard_first": return t("You took the turned-up joker: first discard a card face down.");
    case "joker_kept": return t("The joker stays with you: discard another card.");
    case "no_discard_owed": return t("There is no discard to make now.");
    default: return t("That move is not allowed now.");
  }
}

/** The sentence for a hint's `why` ({code, numbers}), with {action} left for the caller to
 *  fill with the action's label; numbers are shown through num(). The codes are the bots'
 *  (docs/protocol.md#hint): the searching bots' (expert, hard) and the rules of thumb of
 *  easy and medium. */
export function hintTemplate(why) {
  const n = why?.numbers ?? {};
  const p = { percent: Math.round(n.percent ?? 0), deals: Math.round(n.deals ?? 0), moves: Math.round(n.moves ?? 0), depth: Math.round(n.depth ?? 0) };
  switch (why?.code) {
    case "only_move": return t("{action} is your only legal move.");
    case "neutral_trump": return t("Any free suit will do: trumps are chosen before anyone sees a card.");
    // In plain words: what a card wins, never how the search got there (issue 27 §4).
    case "sampled": return t("Play {action}: of all your moves it wins the most deals ({percent} of 100).", p);
    case "solved_win": return t("Play {action}: with it you win this hand whatever the others do ({moves} moves to the end).", p);
    case "solved_loss": return t("You cannot win this hand if your opponent plays well; {action} holds out longest ({moves} moves).", p);
    case "solved_draw": return t("Play {action}: if both of you play well, the hand ends in a draw.");
    case "all_win": return t("You win this hand whatever you play; {action} is as good as any.");
    case "searched": return t("Play {action}: it is your best move, with about {percent} chances in 100 to win.", p);
    // The rules of thumb (easy and medium bots).
    case "guess": return t("No rule of thumb decides here: {action} is as good a guess as any.");
    case "cannot_beat": return t("Nothing you hold beats the top card: pick up.");
    case "take_cheap":
      return plural(Math.round(n.cards ?? 0), t("Pick up: it is only {n} card, and beating would cost one of your best trumps."),
        t("Pick up: it is only {n} cards, and beating would cost one of your best trumps."));
    case "take_costly": return t("Pick up: every card that beats it would spend a top trump or let the next player go out.");
    case "beat_cheapest": return t("Beat with {action}: the cheapest card that does.");
    case "beat_and_go_out": return t("Beat with {action} and go out.");
    case "go_out": return t("Play {action}, your last card, and you are out.");
    case "shed_low": return t("Play {action}: a low card the next player will find hard to beat.");
    case "unbeatable": return t("Play {action}: the next player cannot beat it and must pick up.");
    case "their_trump": return t("Play {action}: it is of the next player's trumps, so only a higher one of those beats it.");
    case "cheap_attack": return t("Play {action}: cheap for you, and costly for the next player to beat.");
    case "joker_discard": return t("{action}: your weakest card goes, before the trump suit is known.");
    case "rob_weakest": return t("{action}: take the turn-up and give up your weakest card.");
    case "lead_sure": return t("One more trick wins the game: lead {action}, the card most likely to take it.");
    case "master_trump": return t("Lead {action}: no one can beat it.");
    case "draw_trumps": return t("Lead {action}: with several trumps, lead high to draw out the others' trumps.");
    case "lead_strong": return t("Lead {action}: a strong card that will probably win the trick.");
    case "lead_plain": return t("Lead {action}, your plain card most likely to win the trick, and keep your trumps.");
    case "only_trumps": return t("You hold only trumps: lead the strongest, {action}.");
    case "win_cheaply": return t("Win the trick as cheaply as you can: play {action}.");
    case "win_last": return t("You play last: {action} is the cheapest card that wins the trick.");
    case "trick_ours": return t("Your side is winning this trick already: throw away {action}, your weakest card.");
    case "trick_lost": return t("This trick is lost: throw away {action} and keep your good cards.");
    default: return t("Hint: {action}");
  }
}
