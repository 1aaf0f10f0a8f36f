// SQL migrations are imported as text so `bun build --compile` embeds them in the executable.
declare module "*.sql" {
  const content: string;
  export default content;
}
