package dev.mnemo.eval;

import java.util.List;
import java.util.Objects;

/**
 * The words {@link HistoryGenerator} builds histories from: ten fact vocabularies, episodic event
 * kinds, off-topic notes, questions about things never stored, and first names.
 *
 * <p>Every phrasing pool is split in two, one half for the {@code dev} split and the other for
 * {@code heldout}, so that numbers on held-out histories measure how well a configuration chosen on
 * dev generalizes to memories and questions worded differently. Question templates never reuse the
 * memory's own wording ("Where does Maya live these days?" for "Maya rents a small flat in Porto"),
 * so retrieval is not string matching. Templates avoid pronouns, so any name fits.
 *
 * <p>Placeholders: {@code {N}} the owner's first name, {@code {v}} the value, {@code {old}} the
 * value it replaces, {@code {since}} a date ("March 3"), {@code {until}} an end ("the end of
 * June"), {@code {when}} a time in a question ("on March 3, 2025", "in March 2025"), {@code {at}} a
 * date in a question ("March 3, 2025"), {@code {time}} a relative time expression ("last month"). A
 * value may have several phrasings separated by {@code |}; one is picked per use. Immutable data.
 */
final class HistoryVocabulary {
  private HistoryVocabulary() {}

  /** A phrasing pool split between the two splits; neither half is empty. */
  record Pool(List<String> dev, List<String> heldout) {
    Pool {
      dev = List.copyOf(dev);
      heldout = List.copyOf(heldout);
      if (dev.isEmpty() || heldout.isEmpty())
        throw new IllegalArgumentException("both halves of a pool must be non-empty");
    }

    List<String> of(String split) {
      return "dev".equals(split) ? dev : heldout;
    }
  }

  static Pool pool(List<String> dev, List<String> heldout) {
    return new Pool(dev, heldout);
  }

  /**
   * One kind of fact an owner has at most one current version of.
   *
   * @param key the fact key written with every version
   * @param values the possible values; phrasings of one value separated by {@code |}
   * @param state a first statement of the fact ({@code {N}}, {@code {v}})
   * @param change a correction that replaces an earlier value ({@code {old}} too)
   * @param retro a correction learned late: true since {@code {since}}, recorded weeks after
   * @param temporary a fact that holds until {@code {until}}; null when the kind has no natural
   *     temporary form (a partner "until June" reads oddly)
   * @param now questions about the current value
   * @param past questions about the value at {@code {when}}, as known now
   * @param known questions about what was believed on {@code {at}}
   */
  record Vocab(
      String key,
      List<String> values,
      Pool state,
      Pool change,
      Pool retro,
      Pool temporary,
      Pool now,
      Pool past,
      Pool known) {
    Vocab {
      Objects.requireNonNull(key, "key");
      values = List.copyOf(values);
    }

    boolean hasTemporary() {
      return temporary != null;
    }
  }

  /**
   * A kind of dated episode; two of a kind in different months make a question's time words
   * necessary.
   *
   * @param code short name used in write ids
   * @param texts what happened ({@code {N}})
   * @param question asked with a time expression ({@code {N}}, {@code {time}})
   */
  record EventKind(String code, Pool texts, Pool question) {}

  /** An off-topic note: hobbies, errands, chores. */
  record Note(String text, String category) {}

  static final List<Vocab> VOCABS =
      List.of(
          new Vocab(
              "home_city",
              List.of(
                  "Porto",
                  "Lisbon",
                  "Berlin",
                  "Utrecht",
                  "Montreal",
                  "Osaka",
                  "Denver",
                  "Edinburgh",
                  "Valencia",
                  "Gothenburg"),
              pool(
                  List.of("{N} lives in {v}.", "{N} rents a small flat in {v}."),
                  List.of(
                      "{N}'s apartment is in {v}.", "{N} settled down in {v} a few years ago.")),
              pool(
                  List.of(
                      "{N} moved from {old} to {v}.",
                      "{N} has relocated to {v}, leaving {old} behind."),
                  List.of(
                      "{N} packed up the flat in {old} and now lives in {v}.",
                      "{N} just signed a lease in {v} after years in {old}.")),
              pool(
                  List.of("We had it wrong: {N} already moved from {old} to {v} on {since}."),
                  List.of("Only heard today that {N} left {old} for {v} back on {since}.")),
              pool(
                  List.of("{N} is staying in {v} for a work secondment until {until}."),
                  List.of("{N} sublets a room in {v} until {until}.")),
              pool(
                  List.of("Where does {N} live these days?", "Which city is {N} based in?"),
                  List.of(
                      "What town should we send {N}'s birthday card to?",
                      "Where is {N}'s home right now?")),
              pool(
                  List.of("Where did {N} live {when}?"),
                  List.of("Which city was {N}'s home {when}?")),
              pool(
                  List.of("On {at}, where did we think {N} lived?"),
                  List.of("As of {at}, which city did our notes say {N} lived in?"))),
          new Vocab(
              "employer",
              List.of(
                  "Acme Robotics",
                  "Globex",
                  "Northwind Traders",
                  "Initech",
                  "Umbrella Health",
                  "Stark Logistics",
                  "Wayne Analytics",
                  "Hooli",
                  "Vandelay Imports",
                  "Soylent Foods"),
              pool(
                  List.of("{N} works at {v}.", "{N} is a data engineer at {v}."),
                  List.of("{N} has a job at {v}.", "{N} draws a salary from {v}.")),
              pool(
                  List.of(
                      "{N} left {old} and joined {v}.",
                      "{N} started a new job at {v} after quitting {old}."),
                  List.of(
                      "{N} accepted an offer from {v} and handed in notice at {old}.",
                      "{N} now gets paid by {v} instead of {old}.")),
              pool(
                  List.of("Correction: {N} actually switched from {old} to {v} on {since}."),
                  List.of("Found out late that {N} has been with {v}, not {old}, since {since}.")),
              pool(
                  List.of("{N} is contracting for {v} until {until}."),
                  List.of("{N} took a fixed-term role at {v} that runs until {until}.")),
              pool(
                  List.of("Which company does {N} work for?", "Who is {N}'s employer right now?"),
                  List.of(
                      "What firm pays {N}'s salary at the moment?",
                      "Which organisation is {N} employed by now?")),
              pool(
                  List.of("Which company was {N} working for {when}?"),
                  List.of("Who employed {N} {when}?")),
              pool(
                  List.of("What did our records say about {N}'s employer on {at}?"),
                  List.of("As of {at}, which company did we believe {N} worked for?"))),
          new Vocab(
              "diet",
              List.of(
                  "vegetarian food only|no meat or fish at all",
                  "fully plant-based, no dairy or eggs",
                  "fish but no meat",
                  "nothing with gluten because of coeliac disease",
                  "strict low-carb keto",
                  "halal meat only",
                  "nothing with lactose in it",
                  "whatever is on the table, no restrictions"),
              pool(
                  List.of("{N} eats {v}.", "These days {N} eats {v}."),
                  List.of(
                      "Worth remembering: {N} eats {v}.", "{N} has been eating {v} for a while.")),
              pool(
                  List.of("{N} used to eat {old}, but has switched to {v}."),
                  List.of("{N} no longer eats {old}; it is {v} now.")),
              pool(
                  List.of("Late news: since {since} {N} eats {v} instead of {old}."),
                  List.of("We missed it: {N} changed from {old} to {v} on {since}.")),
              pool(
                  List.of("{N} is trying {v} until {until}."),
                  List.of("For a trial that lasts until {until}, {N} eats {v}.")),
              pool(
                  List.of(
                      "Does {N} have any dietary restrictions?",
                      "What should we cook if {N} comes to dinner?"),
                  List.of(
                      "Which foods does {N} avoid these days?",
                      "Is there anything {N} won't eat?")),
              pool(
                  List.of("What was {N} eating {when}?"),
                  List.of("Which diet did {N} follow {when}?")),
              pool(
                  List.of("What did we have on file about {N}'s eating habits on {at}?"),
                  List.of("As of {at}, what did our notes say {N} could eat?"))),
          new Vocab(
              "editor",
              List.of(
                  "Vim",
                  "Emacs",
                  "VS Code",
                  "IntelliJ IDEA",
                  "Neovim",
                  "Sublime Text",
                  "Helix",
                  "Zed"),
              pool(
                  List.of(
                      "{N} writes all code in {v}.", "{N} does every bit of programming in {v}."),
                  List.of("{N}'s daily driver for coding is {v}.", "{N} keeps {v} open all day.")),
              pool(
                  List.of(
                      "{N} switched from {old} to {v}.", "{N} gave up {old} and now codes in {v}."),
                  List.of(
                      "After years of {old}, {N} moved over to {v}.",
                      "{N} uninstalled {old}; {v} is the tool now.")),
              pool(
                  List.of("Correction: {N} has been using {v} rather than {old} since {since}."),
                  List.of("Turns out {N} dropped {old} for {v} back on {since}.")),
              pool(
                  List.of("{N} is trying out {v} until {until}."),
                  List.of("{N} promised to give {v} a chance until {until}.")),
              pool(
                  List.of(
                      "Which editor should the setup guide assume for {N}?",
                      "What does {N} use to edit code?"),
                  List.of(
                      "Which IDE keybindings would {N} want?",
                      "What text editor is {N} on nowadays?")),
              pool(
                  List.of("Which editor did {N} use {when}?"),
                  List.of("What tool did {N} write code with {when}?")),
              pool(
                  List.of("On {at}, what did we think {N}'s editor was?"),
                  List.of("As of {at}, which code editor did we have down for {N}?"))),
          new Vocab(
              "phone",
              List.of(
                  "an iPhone 15",
                  "a Pixel 8",
                  "a Galaxy S23",
                  "a Fairphone 5",
                  "an iPhone SE",
                  "a OnePlus 12",
                  "a Nokia flip phone"),
              pool(
                  List.of("{N} carries {v}.", "{N}'s phone is {v}."),
                  List.of("{N} uses {v} every day.", "{N} texts from {v}.")),
              pool(
                  List.of("{N} replaced {old} with {v}.", "{N} upgraded from {old} to {v}."),
                  List.of(
                      "{N} traded in {old} for {v}.",
                      "{N} dropped {old} in a lake and bought {v}.")),
              pool(
                  List.of("Correction: {N} got {v} on {since}; {old} is gone."),
                  List.of("Only learned now that {N} swapped {old} for {v} on {since}.")),
              pool(
                  List.of("{N} is using {v} as a loaner until {until}."),
                  List.of("{N} borrowed {v} from a friend until {until}.")),
              pool(
                  List.of(
                      "What phone does {N} have?",
                      "Which mobile should we test the app on for {N}?"),
                  List.of("Is {N} on Android or iOS?", "Which handset does {N} carry right now?")),
              pool(
                  List.of("What phone did {N} have {when}?"),
                  List.of("Which mobile was {N} using {when}?")),
              pool(
                  List.of("On {at}, what phone did we think {N} had?"),
                  List.of("As of {at}, which handset did our notes list for {N}?"))),
          new Vocab(
              "partner",
              List.of(
                  "Jonas", "Priya", "Luca", "Amara", "Tobias", "Yuki", "Sofia", "Daniel", "Hana",
                  "Mateo"),
              pool(
                  List.of("{N}'s partner is {v}.", "{N} lives together with {v}."),
                  List.of("{N} has been dating {v} for two years.", "{N} and {v} are a couple.")),
              pool(
                  List.of("{N} broke up with {old} and is now seeing {v}."),
                  List.of("{N} split from {old}; {v} is the new partner.")),
              pool(
                  List.of("Late news: {N} has been with {v}, not {old}, since {since}."),
                  List.of("We only just heard that {N} left {old} for {v} on {since}.")),
              null,
              pool(
                  List.of("Who is {N}'s significant other?", "Who is {N} in a relationship with?"),
                  List.of(
                      "Whom should we invite along with {N}?",
                      "What's the name of {N}'s boyfriend or girlfriend?")),
              pool(List.of("Who was {N} with {when}?"), List.of("Who was {N}'s partner {when}?")),
              pool(
                  List.of("On {at}, who did we think {N} was dating?"),
                  List.of("As of {at}, whom did we have down as {N}'s partner?"))),
          new Vocab(
              "sport",
              List.of(
                  "bouldering",
                  "tennis",
                  "road cycling",
                  "open-water swimming",
                  "five-a-side football",
                  "trail running",
                  "beach volleyball",
                  "rowing",
                  "badminton"),
              pool(
                  List.of("{N} is really into {v}.", "Nothing makes {N} happier than {v}."),
                  List.of("{N} is hooked on {v}.", "{N} never misses a week of {v}.")),
              pool(
                  List.of("{N} lost interest in {old} and took up {v}."),
                  List.of("{N} swapped {old} for {v}.")),
              pool(
                  List.of("Correction: {N} gave up {old} for {v} on {since}."),
                  List.of("Heard late that {N} has preferred {v} over {old} since {since}.")),
              null,
              pool(
                  List.of(
                      "Which sport does {N} enjoy most?",
                      "What's {N}'s favourite way to exercise?"),
                  List.of(
                      "What does {N} do to stay fit these days?",
                      "What activity would {N} like as a birthday outing?")),
              pool(
                  List.of("Which sport was {N} into {when}?"),
                  List.of("How did {N} keep fit {when}?")),
              pool(
                  List.of("On {at}, what did we think {N}'s favourite sport was?"),
                  List.of("As of {at}, which activity did our notes say {N} loved?"))),
          new Vocab(
              "language",
              List.of(
                  "Rust",
                  "Go",
                  "Kotlin",
                  "Python",
                  "TypeScript",
                  "Elixir",
                  "C#",
                  "Scala",
                  "Haskell",
                  "Java"),
              pool(
                  List.of(
                      "{N} writes most services in {v}.",
                      "{N}'s favourite programming language is {v}."),
                  List.of(
                      "{N} reaches for {v} for every new project.",
                      "{N} swears by {v} for anything serious.")),
              pool(
                  List.of(
                      "{N} moved the team from {old} to {v}.",
                      "{N} gave up on {old} and now prefers {v}."),
                  List.of("{N} rewrote everything from {old} in {v}.")),
              pool(
                  List.of("Correction: {N} has preferred {v} to {old} since {since}."),
                  List.of("We learned late that {N} abandoned {old} for {v} on {since}.")),
              null,
              pool(
                  List.of(
                      "Which programming language does {N} prefer?",
                      "In what language should the code samples for {N} be?"),
                  List.of(
                      "What should the starter template for {N} be written in?",
                      "Which language would {N} pick for a new backend?")),
              pool(
                  List.of("Which language did {N} prefer {when}?"),
                  List.of("What did {N} build software in {when}?")),
              pool(
                  List.of("On {at}, what did we think {N}'s preferred language was?"),
                  List.of("As of {at}, which language did we note as {N}'s favourite?"))),
          new Vocab(
              "commute",
              List.of(
                  "by bike",
                  "on the tram",
                  "by car",
                  "on foot",
                  "by train",
                  "on an e-scooter",
                  "by bus",
                  "by ferry"),
              pool(
                  List.of("{N} gets to work {v}.", "{N} commutes {v}."),
                  List.of(
                      "Every morning {N} travels to the office {v}.", "{N} goes in {v} each day.")),
              pool(
                  List.of("{N} stopped going {old} and now commutes {v}."),
                  List.of("{N} used to go in {old} but now goes {v}.")),
              pool(
                  List.of("Correction: since {since} {N} has commuted {v}, not {old}."),
                  List.of(
                      "Only found out today that {N} stopped going {old} and has gone {v} since {since}.")),
              pool(
                  List.of("{N} is heading in {v} until {until} while the usual route is closed."),
                  List.of("Until {until}, {N} reaches the office {v} because of roadworks.")),
              pool(
                  List.of("How does {N} get to the office?", "How does {N} travel to work?"),
                  List.of(
                      "Would {N} need a parking spot at the office?",
                      "What's {N}'s way in every morning?")),
              pool(
                  List.of("How did {N} commute {when}?"),
                  List.of("How was {N} getting to work {when}?")),
              pool(
                  List.of("On {at}, how did we think {N} got to work?"),
                  List.of("As of {at}, what did our notes say about {N}'s commute?"))),
          new Vocab(
              "coffee",
              List.of(
                  "a flat white with oat milk",
                  "a double espresso",
                  "black filter coffee",
                  "a cappuccino with extra foam",
                  "a decaf latte",
                  "a cortado",
                  "an iced americano",
                  "green tea instead of coffee"),
              pool(
                  List.of("{N} always orders {v}.", "{N}'s usual at the café is {v}."),
                  List.of(
                      "{N} drinks {v} every morning.", "Get {N} {v} if you are doing a café run.")),
              pool(
                  List.of("{N} switched from {old} to {v}."),
                  List.of("{N} no longer drinks {old}; it is {v} now.")),
              pool(
                  List.of("Correction: {N} has ordered {v} instead of {old} since {since}."),
                  List.of("We noticed late that {N} changed from {old} to {v} on {since}.")),
              null,
              pool(
                  List.of(
                      "How does {N} take coffee?", "What should I get {N} from the coffee shop?"),
                  List.of(
                      "What's {N}'s drink order at the café?",
                      "If I'm grabbing drinks, what does {N} want?")),
              pool(
                  List.of("What coffee did {N} order {when}?"),
                  List.of("What was {N}'s usual drink {when}?")),
              pool(
                  List.of("On {at}, what did we think {N}'s coffee order was?"),
                  List.of("As of {at}, what drink did we have on file for {N}?"))));

  static final List<EventKind> EVENTS =
      List.of(
          new EventKind(
              "trip",
              pool(
                  List.of(
                      "{N} flew to Rome for a long weekend.",
                      "{N} spent five days hiking in the Dolomites.",
                      "{N} visited cousins in Krakow."),
                  List.of(
                      "{N} took the night train to Vienna for a conference.",
                      "{N} went camping on the coast of Brittany.",
                      "{N} spent a week at a lake cabin in Finland.")),
              pool(
                  List.of("Where did {N} travel {time}?"),
                  List.of("Which getaway did {N} go on {time}?"))),
          new EventKind(
              "health",
              pool(
                  List.of(
                      "{N} had a wisdom tooth pulled.",
                      "{N} got a flu shot at the pharmacy.",
                      "{N} sprained an ankle on the stairs."),
                  List.of(
                      "{N} had an eye test and now needs reading glasses.",
                      "{N} spent a night in hospital with food poisoning.",
                      "{N} had physiotherapy for a stiff shoulder.")),
              pool(
                  List.of("What health problem did {N} deal with {time}?"),
                  List.of("Which medical appointment did {N} have {time}?"))),
          new EventKind(
              "party",
              pool(
                  List.of(
                      "{N} threw a surprise party for a brother's fortieth.",
                      "{N} went to a best friend's wedding in Seville.",
                      "{N} hosted a housewarming barbecue."),
                  List.of(
                      "{N} attended a niece's graduation ceremony.",
                      "{N} organised a farewell dinner for a colleague.",
                      "{N} celebrated a grandmother's ninetieth birthday.")),
              pool(
                  List.of("Which party did {N} go to {time}?"),
                  List.of("What did {N} celebrate {time}?"))),
          new EventKind(
              "purchase",
              pool(
                  List.of(
                      "{N} bought a used cargo bike.",
                      "{N} ordered a new standing desk.",
                      "{N} bought a second-hand piano."),
                  List.of(
                      "{N} got a new mattress after months of back pain.",
                      "{N} bought a tent and two sleeping bags.",
                      "{N} finally replaced the old laptop with a new one.")),
              pool(
                  List.of("What big thing did {N} buy {time}?"),
                  List.of("Which major purchase did {N} make {time}?"))),
          new EventKind(
              "work",
              pool(
                  List.of(
                      "{N} gave a talk about testing at a local meetup.",
                      "{N}'s team shipped the billing migration.",
                      "{N} got promoted to senior engineer."),
                  List.of(
                      "{N} ran the quarterly planning workshop.",
                      "{N} mentored two summer interns.",
                      "{N} closed the biggest deal of the year.")),
              pool(
                  List.of("What did {N} achieve at work {time}?"),
                  List.of("Which professional milestone did {N} reach {time}?"))));

  /** Off-topic notes: they answer no question, so selecting one costs precision or abstention. */
  static final List<Note> NOTES_DEV =
      List.of(
          new Note("{N} has been learning to play the cello on Sunday mornings.", "semantic"),
          new Note("{N} needs to pick up a parcel from the post office.", "task"),
          new Note("{N} is repotting all the succulents on the balcony.", "task"),
          new Note("{N} collects vintage postcards of lighthouses.", "semantic"),
          new Note("{N} booked a plumber to fix the dripping kitchen tap.", "task"),
          new Note("{N} returned the library books two weeks late.", "episodic"),
          new Note("{N} is knitting a scarf with a complicated cable pattern.", "semantic"),
          new Note("{N} wants to paint the hallway a pale green.", "semantic"));

  static final List<Note> NOTES_HELDOUT =
      List.of(
          new Note("{N} is building a birdhouse with the neighbour's kids.", "semantic"),
          new Note("{N} renewed a passport at the town hall.", "episodic"),
          new Note("{N} is reading a long biography of a famous chemist.", "semantic"),
          new Note("{N} has to return a borrowed drill to the neighbour.", "task"),
          new Note("{N} is learning to solve a Rubik's cube blindfolded.", "semantic"),
          new Note("{N} is sewing new curtains for the bedroom.", "semantic"),
          new Note("{N} keeps a jar of spare buttons on the windowsill.", "semantic"),
          new Note("{N} has to call the landlord about the broken doorbell.", "task"));

  static List<Note> notes(String split) {
    return "dev".equals(split) ? NOTES_DEV : NOTES_HELDOUT;
  }

  /** Questions about things no history ever stores: a correct engine selects nothing. */
  static final Pool ABSENT =
      pool(
          List.of(
              "What is {N}'s blood type?",
              "What shoe size does {N} wear?",
              "Which bank does {N} keep savings with?",
              "What is {N}'s star sign?"),
          List.of(
              "Which streaming service does {N} pay for?",
              "What is {N}'s favourite band?",
              "What size t-shirt does {N} wear?",
              "Which insurance company covers {N}?"));

  /**
   * Messages that need no memory at all (greetings, thanks, acknowledgements): a correct engine
   * fetches nothing.
   */
  static final Pool SMALL_TALK =
      pool(
          List.of(
              "Hi {N}, how's it going?",
              "Thanks, that was really helpful!",
              "Good morning!",
              "Ok, sounds good."),
          List.of(
              "Hey {N}! Long time no see.",
              "Cheers, I appreciate it.",
              "Have a great weekend!",
              "Alright, got it."));

  /**
   * Requests that depend on a fact they do not name (booking a train depends on the home city,
   * planning a dinner on the diet), by fact key: the current version is the one record that belongs
   * in the prompt.
   */
  static final java.util.Map<String, Pool> INDIRECT =
      java.util.Map.of(
          "home_city",
              pool(
                  List.of("Book a train ticket so that {N} can get home for the holidays."),
                  List.of("Find {N} a flight back home for the long weekend.")),
          "employer",
              pool(
                  List.of("Draft a short note to {N}'s manager at work."),
                  List.of("Look up the office address of the company {N} works for.")),
          "diet",
              pool(
                  List.of("Plan a dinner menu for {N}."),
                  List.of("Pick a restaurant for a lunch with {N}.")),
          "editor",
              pool(
                  List.of("Set up the development laptop for {N}."),
                  List.of("Write the install script for {N}'s coding setup.")),
          "phone",
              pool(
                  List.of("Buy a charger that works with {N}'s device."),
                  List.of("Get a protective case for {N}'s mobile.")),
          "partner",
              pool(
                  List.of("Plan an anniversary surprise for {N}."),
                  List.of("Who should be invited along with {N} to the dinner party?")),
          "sport",
              pool(
                  List.of("Suggest a weekend activity that {N} would enjoy."),
                  List.of("Pick a birthday gift for {N} that suits how {N} keeps fit.")),
          "language",
              pool(
                  List.of("Which tutorial should {N} read before starting the new service?"),
                  List.of("Order a technical book that {N} would use at work.")),
          "commute",
              pool(
                  List.of("Should {N} worry about the transit strike tomorrow?"),
                  List.of("Plan {N}'s route into work for Monday.")),
          "coffee",
              pool(
                  List.of("Grab a drink for {N} on the way in."),
                  List.of("Order something from the cafe that {N} will like.")));

  /** First names of owners; disjoint from the partner values so that a name means one person. */
  static final Pool NAMES =
      pool(
          List.of("Maya", "Alex", "Sam", "Noor", "Lena", "Tomas", "Ruth", "Oskar", "Elif", "Marco"),
          List.of(
              "Ines", "Kofi", "Mei", "Omar", "Rosa", "Felix", "Aisha", "Bruno", "Greta", "Ravi"));

  /**
   * Relative time expressions for event questions, by split; the generator knows each one's range.
   * {@code {Month}} is replaced by a month name.
   */
  static final Pool TIME_WORDS =
      pool(
          List.of("last month", "in {Month}"),
          List.of("in {Month}", "two months ago", "last week"));
}
