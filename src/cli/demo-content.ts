/**
 * The demo project `phrasebook demo` creates (docs/product.md §1): a small shop app in English (base),
 * German and Brazilian Portuguese, with ICU placeholders, plurals and a select message. A few
 * Portuguese strings are left untranslated on purpose, so the grid shows what a gap looks like.
 */
export const DEMO_PROJECT_NAME = "Demo shop app";
export const DEMO_LANGUAGES = ["en", "de", "pt-BR"] as const;

export interface DemoKey {
  key: string;
  context?: string;
  en: string;
  de: string;
  "pt-BR"?: string;
}

export const DEMO_KEYS: DemoKey[] = [
  { key: "app.title", context: "Shown in the header and the app store listing", en: "Demo Shop", de: "Demo-Shop", "pt-BR": "Loja Demo" },
  { key: "app.tagline", en: "Everything you need, delivered.", de: "Alles, was du brauchst, geliefert.", "pt-BR": "Tudo o que você precisa, entregue." },
  { key: "nav.home", context: "Bottom navigation tab", en: "Home", de: "Start", "pt-BR": "Início" },
  { key: "nav.search", context: "Bottom navigation tab", en: "Search", de: "Suche", "pt-BR": "Buscar" },
  { key: "nav.cart", context: "Bottom navigation tab", en: "Cart", de: "Warenkorb", "pt-BR": "Carrinho" },
  { key: "nav.orders", context: "Bottom navigation tab", en: "Orders", de: "Bestellungen", "pt-BR": "Pedidos" },
  { key: "nav.account", context: "Bottom navigation tab", en: "Account", de: "Konto", "pt-BR": "Conta" },
  { key: "auth.sign_in", en: "Sign in", de: "Anmelden", "pt-BR": "Entrar" },
  { key: "auth.sign_out", en: "Sign out", de: "Abmelden", "pt-BR": "Sair" },
  { key: "auth.email", context: "Label of the email field", en: "Email address", de: "E-Mail-Adresse", "pt-BR": "Endereço de e-mail" },
  { key: "auth.password", context: "Label of the password field", en: "Password", de: "Passwort", "pt-BR": "Senha" },
  { key: "auth.forgot_password", en: "Forgot your password?", de: "Passwort vergessen?", "pt-BR": "Esqueceu a senha?" },
  { key: "auth.welcome_back", context: "{name} is the customer's first name", en: "Welcome back, {name}!", de: "Willkommen zurück, {name}!", "pt-BR": "Bem-vindo de volta, {name}!" },
  { key: "cart.title", en: "Your cart", de: "Dein Warenkorb", "pt-BR": "Seu carrinho" },
  { key: "cart.empty", en: "Your cart is empty.", de: "Dein Warenkorb ist leer.", "pt-BR": "Seu carrinho está vazio." },
  {
    key: "cart.items_count",
    context: "Badge on the cart icon",
    en: "{count, plural, =0 {No items} one {# item} other {# items}}",
    de: "{count, plural, =0 {Keine Artikel} one {# Artikel} other {# Artikel}}",
    "pt-BR": "{count, plural, =0 {Nenhum item} one {# item} many {# de itens} other {# itens}}",
  },
  { key: "cart.subtotal", context: "{amount} is a formatted price", en: "Subtotal: {amount}", de: "Zwischensumme: {amount}", "pt-BR": "Subtotal: {amount}" },
  { key: "cart.remove_item", en: "Remove {product} from your cart", de: "{product} aus dem Warenkorb entfernen", "pt-BR": "Remover {product} do carrinho" },
  { key: "cart.checkout", context: "Primary button at the bottom of the cart", en: "Go to checkout", de: "Zur Kasse", "pt-BR": "Finalizar compra" },
  { key: "checkout.shipping_address", en: "Shipping address", de: "Lieferadresse", "pt-BR": "Endereço de entrega" },
  { key: "checkout.payment_method", en: "Payment method", de: "Zahlungsart", "pt-BR": "Forma de pagamento" },
  { key: "checkout.pay_button", context: "Primary button on the payment step; {amount} is a formatted price", en: "Pay {amount}", de: "{amount} bezahlen", "pt-BR": "Pagar {amount}" },
  {
    key: "checkout.delivery_estimate",
    en: "Arrives in {days, plural, one {# day} other {# days}}",
    de: "Ankunft in {days, plural, one {# Tag} other {# Tagen}}",
    "pt-BR": "Chega em {days, plural, one {# dia} many {# de dias} other {# dias}}",
  },
  { key: "checkout.terms", en: "By placing the order you agree to our terms.", de: "Mit deiner Bestellung stimmst du unseren AGB zu.", "pt-BR": "Ao fazer o pedido, você concorda com nossos termos." },
  { key: "order.confirmed", en: "Thank you! Order {orderId} is confirmed.", de: "Danke! Bestellung {orderId} ist bestätigt.", "pt-BR": "Obrigado! O pedido {orderId} foi confirmado." },
  { key: "order.status.pending", context: "Order status label", en: "Pending", de: "Ausstehend", "pt-BR": "Pendente" },
  { key: "order.status.shipped", context: "Order status label", en: "Shipped", de: "Versandt", "pt-BR": "Enviado" },
  { key: "order.status.delivered", context: "Order status label", en: "Delivered", de: "Zugestellt", "pt-BR": "Entregue" },
  { key: "order.shipped_by", context: "{date} is a formatted date", en: "{carrier} picked up your parcel on {date}.", de: "{carrier} hat dein Paket am {date} abgeholt." },
  { key: "product.add_to_cart", en: "Add to cart", de: "In den Warenkorb", "pt-BR": "Adicionar ao carrinho" },
  {
    key: "product.in_stock",
    en: "{count, plural, =0 {Out of stock} one {Only # left} other {# in stock}}",
    de: "{count, plural, =0 {Ausverkauft} one {Nur noch # übrig} other {# auf Lager}}",
    "pt-BR": "{count, plural, =0 {Esgotado} one {Só resta #} many {# de unidades em estoque} other {# em estoque}}",
  },
  {
    key: "product.reviews",
    en: "{count, plural, one {# review} other {# reviews}}",
    de: "{count, plural, one {# Bewertung} other {# Bewertungen}}",
    "pt-BR": "{count, plural, one {# avaliação} many {# de avaliações} other {# avaliações}}",
  },
  { key: "product.rating", en: "Rated {rating} out of 5", de: "Mit {rating} von 5 bewertet", "pt-BR": "Nota {rating} de 5" },
  { key: "product.share", en: "Share", de: "Teilen", "pt-BR": "Compartilhar" },
  { key: "search.placeholder", en: "Search products", de: "Produkte suchen", "pt-BR": "Buscar produtos" },
  { key: "search.no_results", en: "No results for “{query}”.", de: "Keine Ergebnisse für „{query}“.", "pt-BR": "Nenhum resultado para “{query}”." },
  { key: "search.results", en: "{count, plural, one {# result} other {# results}}", de: "{count, plural, one {# Ergebnis} other {# Ergebnisse}}" },
  {
    key: "profile.updated",
    context: "Activity feed entry; gender comes from the profile",
    en: "{gender, select, female {She updated her profile} male {He updated his profile} other {They updated their profile}}",
    de: "{gender, select, female {Sie hat ihr Profil aktualisiert} male {Er hat sein Profil aktualisiert} other {Das Profil wurde aktualisiert}}",
    "pt-BR": "{gender, select, female {Ela atualizou o perfil} male {Ele atualizou o perfil} other {O perfil foi atualizado}}",
  },
  { key: "profile.member_since", en: "Member since {year}", de: "Mitglied seit {year}", "pt-BR": "Membro desde {year}" },
  { key: "profile.edit", en: "Edit profile", de: "Profil bearbeiten", "pt-BR": "Editar perfil" },
  { key: "settings.language", en: "Language", de: "Sprache", "pt-BR": "Idioma" },
  { key: "settings.notifications", en: "Notifications", de: "Benachrichtigungen", "pt-BR": "Notificações" },
  { key: "settings.dark_mode", en: "Dark mode", de: "Dunkelmodus", "pt-BR": "Modo escuro" },
  { key: "settings.saved", context: "Toast after saving settings", en: "Settings saved", de: "Einstellungen gespeichert", "pt-BR": "Configurações salvas" },
  {
    key: "notifications.unread",
    en: "{count, plural, =0 {No new notifications} one {# new notification} other {# new notifications}}",
    de: "{count, plural, =0 {Keine neuen Benachrichtigungen} one {# neue Benachrichtigung} other {# neue Benachrichtigungen}}",
  },
  { key: "errors.network", en: "Can’t reach the server. Check your connection.", de: "Server nicht erreichbar. Prüfe deine Verbindung.", "pt-BR": "Não foi possível acessar o servidor. Verifique sua conexão." },
  { key: "errors.generic", en: "Something went wrong. Please try again.", de: "Etwas ist schiefgelaufen. Bitte versuche es erneut.", "pt-BR": "Algo deu errado. Tente novamente." },
  { key: "errors.required_field", context: "{field} is the label of a form field", en: "{field} is required", de: "{field} ist erforderlich" },
  { key: "common.cancel", en: "Cancel", de: "Abbrechen", "pt-BR": "Cancelar" },
  { key: "common.save", en: "Save", de: "Speichern", "pt-BR": "Salvar" },
  { key: "common.retry", en: "Try again", de: "Erneut versuchen", "pt-BR": "Tentar novamente" },
  { key: "invite.message", en: "{inviter} invited you to {team}", de: "{inviter} hat dich zu {team} eingeladen" },
];

/** German strings still waiting for review (the rest are approved), to show both states. */
export const DEMO_UNREVIEWED_DE = new Set(["checkout.terms", "order.shipped_by", "search.results", "notifications.unread", "invite.message"]);
