-- Every change to a merchant, its API keys or its encryption keys is announced on the channel
-- `checkout_merchants` (payload: the merchant id) when its transaction commits, whoever makes it (a server, the
-- merchant CLI, an operator's SQL). Processes cache keys and merchants and drop them on the notice.

CREATE FUNCTION checkout_notify_merchant_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer;
BEGIN
  IF TG_TABLE_NAME = 'merchants' THEN
    changed := COALESCE(NEW.id, OLD.id);
  ELSIF TG_OP = 'DELETE' THEN
    changed := OLD.merchant_id;
  ELSE
    changed := NEW.merchant_id;
  END IF;
  PERFORM pg_notify('checkout_merchants', changed::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER merchants_changed AFTER INSERT OR UPDATE OR DELETE ON merchants
  FOR EACH ROW EXECUTE FUNCTION checkout_notify_merchant_change();
CREATE TRIGGER api_keys_changed AFTER INSERT OR UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION checkout_notify_merchant_change();
CREATE TRIGGER encryption_keys_changed AFTER INSERT OR UPDATE OR DELETE ON encryption_keys
  FOR EACH ROW EXECUTE FUNCTION checkout_notify_merchant_change();
