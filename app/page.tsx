import { NewChat } from "@/components/chat/NewChat";
import { loadAppInfo } from "./_data";

export default function NewConversationPage() {
  return <NewChat app={loadAppInfo()} />;
}
